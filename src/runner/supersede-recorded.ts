import { supersedeSessions } from '../cassette/sqlite/cassette-maintenance.js';
import type { Logger } from '../logger.js';
import type { CaseResult } from '../scoring/case-result.js';

/**
 * Recording a case again replaces its earlier recordings (or, when it failed, keeps them): a
 * cassette holds one run of each case, which is what replay serves and `calltape score` reads.
 */
export function supersedeRecorded(
  cassette: string,
  since: number,
  results: readonly CaseResult[],
  logger: Logger,
): void {
  const failed = results
    .filter((result) => result.status === 'error')
    .map((result) => result.session);
  const recorded = results
    .filter((result) => result.status !== 'error')
    .map((result) => result.session);
  const { replaced, rolledBack } = supersedeSessions(cassette, since, recorded, failed);
  if (replaced > 0)
    logger.info(
      `${cassette}: replaced ${replaced} earlier recording(s) of the cases recorded again`,
    );
  if (rolledBack > 0)
    logger.warn(
      `${cassette}: kept the earlier recordings of the cases whose recording failed (${rolledBack} new recording(s) of them dropped)`,
    );
}
