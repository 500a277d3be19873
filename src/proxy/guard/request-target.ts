/**
 * Bedrock Runtime's paths whose second segment may be an ARN, its slashes encoded: a model id
 * (`/model/arn%3Aaws…%2Fprofile/converse`), an async invocation (`/async-invoke/arn%3A…%2Fid`),
 * a guardrail (`/guardrail/arn%3A…%2Fid/version/1/apply`).
 */
const arnRoots: ReadonlySet<string> = new Set(['model', 'async-invoke', 'guardrail']);

/** Every refusal of a path needs a `/.` (a dot segment), a `%` (an escape) or a backslash. */
const mayBeRefused = /\/\.|%|\\/;

/**
 * Why a request target may not be forwarded, or undefined when it may. Only origin-form targets
 * (`/path?query`) are proxied: an absolute-form target (`http://host/…`, meant for forward
 * proxies) or `*` would be forwarded verbatim, and a `..` segment (also percent-encoded) could
 * climb out of the upstream's path prefix.
 */
export function requestTargetRefusal(url: string): string | undefined {
  if (!url.startsWith('/'))
    return 'calltape: only origin-form request targets (/v1/…) are proxied; absolute-form and asterisk targets are refused';
  if (url.startsWith('//')) return 'calltape: a request target may not start with //';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  // Most paths hold none of those: they skip the split and the per-segment expressions.
  if (!mayBeRefused.test(path)) return undefined;
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    const arn = index === 2 && arnRoots.has(segments[1] ?? '');
    for (const part of arn ? segment.split(/%2f/i) : [segment]) {
      const decoded = part.replace(/%2e/gi, '.');
      if (decoded === '..' || decoded === '.')
        return 'calltape: request paths may not contain . or .. segments';
      if (/%2f|%5c|\\/i.test(part))
        return 'calltape: request paths may not contain encoded slashes or backslashes';
    }
  }
  return undefined;
}

/** The refusal of a per-request cassette choice (`/c/<name>/`) when `cassettes.allowRequestOverride` is off. */
export const cassetteOverrideRefusal =
  'calltape: this proxy does not let requests choose a cassette (/c/<name>/); its operator can allow it with cassettes.allowRequestOverride';

/** Why a parsed route may not be served: a cassette chosen while overrides are off, or a bad target. */
export function routeRefusal(
  route: { readonly cassette: unknown; readonly path: string },
  allowRequestOverride: boolean,
): string | undefined {
  if (route.cassette !== undefined && !allowRequestOverride) return cassetteOverrideRefusal;
  return requestTargetRefusal(route.path);
}
