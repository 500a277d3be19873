import type { IncomingMessage } from 'node:http';
import type { CapturedRound } from '../cassette/captured-round.js';
import type { MissCause } from '../cassette/describe-mismatch.js';
import type { MatchKey } from '../cassette/match-key.js';
import { parseSampleSession } from '../cassette/sample-session.js';
import type { CassetteReader, Recording } from '../cassette/sqlite/cassette-reader.js';
import { CalltapeError } from '../errors.js';
import type { ResponseEnding } from '../providers/provider-adapter.js';
import { sessionHeader } from './headers.js';

/** What a replay run did, for the summary `calltape replay` prints. */
export interface ReplayStats {
  hits: number;
  misses: number;
  /** Interactions forwarded and recorded (record and auto modes). */
  recorded: number;
  /** Of those, the ones the upstream never answered (unreachable, timed out): recorded as calltape's own error. */
  unanswered: number;
  /** Recording ids served at least once. */
  readonly served: Set<string>;
  /** One line per miss: what differed. */
  readonly missReasons: string[];
  /** Recordings served although older than `expiry.maxAge` (onExpired: warn). */
  expired: number;
  /** Misses per cassette file. */
  readonly missedIn: Map<string, number>;
  /** Diff mode: requests whose live tool calls differ from the recording (or that have none). */
  readonly diffs: { request: string; recordingId: string | undefined; lines: readonly string[] }[];
  /** Diff mode: live answers compared with a recording. */
  compared: number;
  /** Model turns refused under mocks.strictTools (a call to a tool neither mocked nor allowed). */
  refused: number;
}

/** Reasons kept for the summary; a proxy serving a long CI run must not grow without bound. */
export const maxReasons = 1_000;

/** Counts a replay miss for the run's summary and the cassette's replay-run note. */
export function countMiss(stats: ReplayStats, cassette: string, reason: string): void {
  stats.misses++;
  stats.missedIn.set(cassette, (stats.missedIn.get(cassette) ?? 0) + 1);
  if (stats.missReasons.length < maxReasons) stats.missReasons.push(reason);
}

/** `12h` / `30d` in milliseconds; undefined for no limit. */
export function parseMaxAge(maxAge: string | null): number | undefined {
  const match = maxAge === null ? null : /^(\d+)(h|d)$/.exec(maxAge);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000);
}

export function formatAge(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${Math.floor(hours)} hours`;
}

export function findRecording(
  reader: CassetteReader,
  match: MatchKey,
  onExhausted: 'error' | 'repeat-last',
): Recording | undefined {
  const exact = reader.find(match.key, match.ordinal, match.scope);
  if (exact || onExhausted === 'error') return exact;
  const last = reader.lastOrdinal(match.key);
  return last === undefined ? undefined : reader.find(match.key, last, match.scope);
}

/** How a miss says to record what is missing; commands that know how the user records replace it with their own words. */
export const recordHint =
  'Record it again in record mode, or in auto mode to record only what is missing.';

/** A replay miss with its cause as data, so a run can group many cases' misses by what changed. */
export class ReplayMissError extends CalltapeError {
  constructor(
    message: string,
    readonly missCause: MissCause,
  ) {
    super('CASSETTE_MISS', message);
  }
}

export function describeMiss(
  reader: CassetteReader,
  keyed: { match: MatchKey; canonical: Parameters<CassetteReader['nearest']>[0] },
  cassette: string,
  method: string,
  path: string,
): ReplayMissError {
  const recorded = reader.lastOrdinal(keyed.match.key);
  const scope = keyed.match.scope ? `session "${keyed.match.scope}"` : 'this run';
  const { sample } = parseSampleSession(keyed.match.scope);
  // Recorded for other samples only: repeat-last would not help, a sample is served its own.
  if (recorded !== undefined && sample > 1)
    return new ReplayMissError(
      `calltape: cassette ${cassette}: ${method} ${path} has no recording in ${scope} (sample ${sample} of a repeated case; replay serves each sample its own recordings)\n${recordHint}`,
      {
        field: null,
        meaning:
          'found no recording of its own sample (replay serves each sample of a repeated case only its own)',
      },
    );
  if (recorded !== undefined) {
    return new ReplayMissError(
      `calltape: cassette ${cassette}: ${method} ${path} was recorded ${recorded + 1} time(s); this is request ${keyed.match.ordinal + 1} of it in ${scope}. Re-record, or set match.onExhausted to "repeat-last".`,
      { field: null, meaning: 'was sent more often than recorded' },
    );
  }
  const nearest = reader.nearest(keyed.canonical);
  const detail = nearest
    ? `; the nearest recording (${nearest.id}) differs at ${nearest.mismatch.field}:\n  ${nearest.mismatch.lines.join('\n  ')}`
    : '; the cassette has no recording of this kind';
  return new ReplayMissError(
    `calltape: cassette ${cassette} has no recording for ${method} ${path}${detail}\n${recordHint}`,
    nearest
      ? {
          field: nearest.mismatch.field,
          meaning: nearest.mismatch.meaning,
          ...(nearest.mismatch.lines[0] === undefined
            ? {}
            : { difference: nearest.mismatch.lines[0] }),
        }
      : { field: null, meaning: null },
  );
}

export function withoutSessionHeader(
  headers: IncomingMessage['headers'],
): IncomingMessage['headers'] {
  if (headers[sessionHeader] === undefined) return headers;
  const { [sessionHeader]: _session, ...rest } = headers;
  return rest;
}

/** A recording as the upstream outcome it once was, to trace a replayed answer like a live one. */
export function upstreamOfRecording(recording: Recording): CapturedRound['upstream'] {
  const body = recording.body ?? Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  const chunkTimes: number[] = [];
  let start = 0;
  for (const [end, atMs] of recording.chunks) {
    if (end > start) {
      chunks.push(body.subarray(start, end));
      chunkTimes.push(atMs);
    }
    start = Math.max(start, end);
  }
  if (start < body.length) {
    chunks.push(body.subarray(start));
    chunkTimes.push(chunkTimes.at(-1) ?? 0);
  }
  return {
    status: recording.httpStatus,
    headers: recording.headers,
    chunks,
    chunkTimes,
    firstByteMs: chunkTimes[0],
    totalMs: chunkTimes.at(-1) ?? 0,
    ending: (recording.ending ?? 'finished') as ResponseEnding,
    errorMessage: recording.error ?? undefined,
  };
}
