import type { MissCause } from '../cassette/describe-mismatch.js';
import { groupReplayMisses, type ReplayMissSummary } from '../report/replay-miss-summary.js';
import type { CaseResult } from '../scoring/case-result.js';

/** A replay miss the proxy told a suite run about: its message and, when the cassette could tell, its cause. */
export interface SessionMiss {
  readonly message: string;
  readonly cause: MissCause | undefined;
}

/**
 * The run's replay misses grouped by the cause of each case's first miss, for the report to say
 * once (`replay_misses`); nothing when no case missed.
 */
export function collectReplayMisses(
  results: readonly CaseResult[],
  misses: ReadonlyMap<string, readonly SessionMiss[]>,
  severalRuns: boolean,
  recordCommand: string,
): { replay_misses?: ReplayMissSummary } {
  const missed = results.flatMap((result) => {
    const first = misses.get(result.session)?.[0];
    if (!first) return [];
    return [
      {
        case: severalRuns ? `${result.run}/${result.test_id}` : result.test_id,
        field: first.cause?.field ?? null,
        meaning: first.cause?.meaning ?? null,
        ...(first.cause?.difference === undefined ? {} : { difference: first.cause.difference }),
      },
    ];
  });
  const summary = groupReplayMisses(missed, recordCommand);
  return summary ? { replay_misses: summary } : {};
}
