/**
 * Headers that are stored (an allowlist: anything unknown, organisation and project ids
 * included, is dropped). Prefix entries end in '-'.
 */
export const storedHeaderNames: readonly string[] = [
  'content-type',
  'content-encoding',
  'content-language',
  'accept',
  'accept-encoding',
  'user-agent',
  'cache-control',
  'openai-beta',
  'openai-version',
  'openai-processing-ms',
  'anthropic-version',
  'anthropic-beta',
  'x-request-id',
  'request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'idempotency-key',
  // Bedrock's exception name: the AWS SDK picks the error it raises from it, in replay too.
  'x-amzn-errortype',
  'x-stainless-',
  'x-ratelimit-',
  'anthropic-ratelimit-',
];

const storedExactly = new Set(storedHeaderNames.filter((name) => !name.endsWith('-')));
const storedPrefixes = storedHeaderNames.filter((name) => name.endsWith('-'));

function isStoredHeader(name: string): boolean {
  return storedExactly.has(name) || storedPrefixes.some((prefix) => name.startsWith(prefix));
}

/**
 * Header names whose verdict is remembered: an agent and its provider send the same few dozen
 * names every round. Past this many (a client inventing names), the rest are judged afresh.
 */
const maxRememberedNames = 512;

/**
 * The headers worth storing, as `Redactor.headers` returns them: allowlisted names only,
 * lower-cased, never one of the `secret` names (lower-case). Each name's verdict is worked out
 * once (lower-casing it, the set and prefix checks), which took a few µs of every stored round.
 */
export function storedHeaderFilter(
  secret: ReadonlySet<string>,
): (
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
) => Record<string, string | string[]> {
  /** A name as sent → its stored (lower-case) name, or null when it is not stored. */
  const verdicts = new Map<string, string | null>();
  const storedName = (name: string): string | null => {
    const known = verdicts.get(name);
    if (known !== undefined) return known;
    const lower = name.toLowerCase();
    const verdict = secret.has(lower) || !isStoredHeader(lower) ? null : lower;
    if (verdicts.size < maxRememberedNames) verdicts.set(name, verdict);
    return verdict;
  };
  return (headers) => {
    const kept: Record<string, string | string[]> = {};
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (value === undefined) continue;
      const stored = storedName(name);
      if (stored !== null) kept[stored] = typeof value === 'string' ? value : [...value];
    }
    return kept;
  };
}
