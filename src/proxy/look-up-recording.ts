import type { MatchKey } from '../cassette/match-key.js';
import type { CassetteReader, Recording } from '../cassette/sqlite/cassette-reader.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  describeMiss,
  findRecording,
  formatAge,
  parseMaxAge,
  type ReplayStats,
} from './replay-lookup.js';
import type { Where } from './route-types.js';

export interface LookupOptions {
  readonly reader: CassetteReader;
  readonly keyed: {
    readonly match: MatchKey;
    readonly canonical: Parameters<CassetteReader['nearest']>[0];
  };
  readonly where: Where;
  readonly method: string;
  /** The request as named in messages (redacted path, transport). */
  readonly label: string;
  readonly config: Pick<Config, 'match' | 'expiry'>;
  readonly stats: ReplayStats;
  readonly logger: Logger;
}

/** What the cassette says about a request: a usable recording, a miss to answer, or go live (auto and diff modes). */
export type LookupResult =
  | { readonly kind: 'hit'; readonly recording: Recording }
  | { readonly kind: 'miss'; readonly error: CalltapeError }
  | { readonly kind: 'forward'; readonly compareWith: string | null | undefined };

/**
 * Looks a keyed request up in its mode. Diff mode always goes live, with the recording to compare
 * against; a recording past `expiry.maxAge` is served with a warning (`onExpired: warn`), missed
 * (replay, or `onExpired: error`) or re-recorded (auto with `rerecord`).
 */
export function lookUpRecording(options: LookupOptions): LookupResult {
  const { reader, keyed, where, config } = options;
  const found = findRecording(reader, keyed.match, config.match.onExhausted);
  if (where.mode === 'diff') return { kind: 'forward', compareWith: found?.id ?? null };
  const maxAgeMs = parseMaxAge(config.expiry.maxAge);
  const age = found ? Date.now() - found.startedAt : 0;
  const expired = found !== undefined && maxAgeMs !== undefined && age > maxAgeMs;
  if (expired && config.expiry.onExpired === 'warn') {
    options.stats.expired++;
    options.logger.info(
      `${where.cassette}: recording ${found.id} is ${formatAge(age)} old (expiry.maxAge ${config.expiry.maxAge ?? ''}); re-record it`,
    );
  }
  if (found && (!expired || config.expiry.onExpired === 'warn'))
    return { kind: 'hit', recording: found };
  if (expired && (where.mode === 'replay' || config.expiry.onExpired === 'error')) {
    return {
      kind: 'miss',
      error: new CalltapeError(
        'CASSETTE_MISS',
        `calltape: cassette ${where.cassette}: the recording for ${options.method} ${options.label} is ${formatAge(age)} old, past expiry.maxAge ${config.expiry.maxAge ?? ''}; re-record it (calltape auto with expiry.onExpired "rerecord" does).`,
      ),
    };
  }
  if (where.mode !== 'replay') return { kind: 'forward', compareWith: undefined };
  return {
    kind: 'miss',
    error:
      where.nearMiss !== undefined
        ? new CalltapeError('CASSETTE_MISS', where.nearMiss)
        : describeMiss(reader, keyed, where.cassette, options.method, options.label),
  };
}
