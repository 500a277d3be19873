import { supersedeSessions } from '../cassette/sqlite/cassette-maintenance.js';
import type { Logger } from '../logger.js';
import type { CaseResult } from '../scoring/case-result.js';
import { parseSampleSession } from '../cassette/sample-session.js';

/**
 * Recording a case again replaces its earlier recordings (or, when it failed, keeps them): a
 * cassette holds one run of each case, which is what replay serves and `calltape score` reads.
 * A repeated case is each of its samples: a sample whose recording failed keeps its earlier
 * one, and a case recorded in full loses the recordings of samples it no longer runs (it ran 5
 * times before, 3 now). After an auto run, a case that recorded something new keeps only what
 * the run replayed or recorded: a prompt change replaces its block instead of appending to it.
 */
export function supersedeRecorded(
  cassette: string,
  since: number,
  results: readonly CaseResult[],
  logger: Logger,
  /** An auto run: the recordings it replayed, which stay. */
  served?: ReadonlySet<string>,
): void {
  const samples = results.flatMap(
    (result): readonly Pick<CaseResult, 'session' | 'status'>[] =>
      result.samples?.results ?? [result],
  );
  const failed = samples
    .filter((sample) => sample.status === 'error')
    .map((sample) => sample.session);
  const recorded = samples
    .filter((sample) => sample.status !== 'error')
    .map((sample) => sample.session);
  // Sample counts of the cases recorded in full, by the session of their sample 1.
  const sampled = new Map(
    results
      .filter((result) => result.status !== 'error')
      .map((result) => [
        parseSampleSession(result.session).caseSession,
        result.samples?.total ?? 1,
      ]),
  );
  const stale = (session: string): boolean => {
    const { caseSession, sample } = parseSampleSession(session);
    return sample > (sampled.get(caseSession) ?? Infinity);
  };
  const { replaced, rolledBack } = supersedeSessions(
    cassette,
    since,
    recorded,
    failed,
    // Auto keeps samples it did not run: it records only what is missing, and deletes nothing else.
    served ? () => false : stale,
    served,
  );
  if (replaced > 0)
    logger.info(
      `${cassette}: replaced ${replaced} earlier recording(s) of the cases recorded again`,
    );
  if (rolledBack > 0)
    logger.warn(
      `${cassette}: kept the earlier recordings of the cases whose recording failed (${rolledBack} new recording(s) of them dropped)`,
    );
}
