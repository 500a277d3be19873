import { parseJson } from '../providers/json-access.js';
import type { JsonValue } from '../trace/trace.js';
import {
  canonicalRequest,
  canonicalText,
  keyProfile,
  type CanonicalRequest,
  type MatchRules,
} from './canonical-request.js';
import { requestKey } from './request-key.js';

/** A request's identity in a cassette, as stored beside the recording. */
export interface MatchKey {
  /** SHA-256 of the canonical request text. */
  readonly key: string;
  /** The matching rules the key was computed under. */
  readonly profile: string;
  /** The canonical request text (kept so a miss can be explained and rules changed without re-recording). */
  readonly canonical: string;
  /** 0 for the first identical request in its scope, 1 for the second… */
  readonly ordinal: number;
  /** The session id, or '' for requests without one (one run of the proxy is then the scope). */
  readonly scope: string;
}

/** Computes key and canonical form of a request under the rules. */
export function keyOf(
  method: string,
  path: string,
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  body: JsonValue,
  rules: MatchRules,
): { readonly key: string; readonly canonical: CanonicalRequest; readonly text: string } {
  const canonical = canonicalRequest(method, path, headers, body, rules);
  const text = canonicalText(canonical);
  return { key: requestKey(text), canonical, text };
}

/**
 * Counts identical requests per scope, so the Nth identical request of a session is matched with
 * the Nth recording of it — never answered by the first recording forever. Bounded, because a
 * long-running proxy sees an endless stream of distinct requests: past `capacity` the oldest
 * counts are forgotten (a request seen again only after that many others counts from 0).
 */
export class OrdinalCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity = 100_000) {}

  next(scope: string, key: string): number {
    const id = `${scope}\u0000${key}`;
    const ordinal = this.counts.get(id) ?? 0;
    this.counts.delete(id);
    this.counts.set(id, ordinal + 1);
    if (this.counts.size > this.capacity)
      this.counts.delete(this.counts.keys().next().value as string);
    return ordinal;
  }

  get size(): number {
    return this.counts.size;
  }
}

export { keyProfile };

/** The rules requests are keyed by: the configured ones, plus the stream flags when either form may answer. */
export function effectiveRules(
  match: MatchRules & { readonly streamAgnostic?: boolean },
): MatchRules {
  const ignorePaths = match.streamAgnostic
    ? [...match.ignorePaths, 'stream', 'stream_options']
    : match.ignorePaths;
  return {
    ignorePaths,
    normalisers: match.normalisers,
    ...(match.azureApiVersion ? { azureApiVersion: match.azureApiVersion } : {}),
  };
}

/** A body for keying: its JSON, or the text itself when redaction left it unparseable. */
export function parseBody(text: string): JsonValue {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : text;
}

/** Keys a stored request again, from its stored method, path, headers and (redacted) body, under `rules`. */
export function storedRequestKeyer(
  rules: MatchRules,
): (row: {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
}) => { key: string; text: string } {
  const decoder = new TextDecoder();
  return (row) => {
    const { key, text } = keyOf(
      row.method,
      row.path,
      row.headers,
      parseBody(decoder.decode(row.body)),
      rules,
    );
    return { key, text };
  };
}
