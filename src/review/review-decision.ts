import { CalltapeError } from '../errors.js';
import { textField } from '../request-fields.js';

/** A decision on one pending case, as the app posts it. */
export interface ReviewDecision {
  /** The suite file as the review listing names it (one of the files it was started with). */
  readonly suite: string;
  /** The case's test_id. */
  readonly case: string;
  readonly decision: 'accept' | 'reject';
  /** Keep a rejected case as `review: rejected` instead of removing it (`calltape review --keep-rejected`). */
  readonly keepRejected: boolean;
}

/**
 * Reads a posted review decision; fields are read as own properties and bounded. A suite that is
 * not one of `files` (the suites the app was started with) is refused before any file is opened,
 * with the same words whether or not it exists, so the API writes only the project's own suites.
 */
export function parseReviewDecision(
  record: Readonly<Record<string, unknown>>,
  files: readonly string[],
): ReviewDecision {
  const text = (name: string, limit: number): string | undefined =>
    textField(record, name, limit, 'review request');
  const suite = text('suite', 4096);
  if (suite === undefined || !files.includes(suite))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `the review request's "suite" must be one of the suites under review (${files.join(', ') || 'none: start with --suites'})`,
    );
  const id = text('case', 1000);
  if (!id) throw new CalltapeError('CONFIG_INVALID', 'the review request names no "case"');
  const decision = text('decision', 10);
  if (decision !== 'accept' && decision !== 'reject')
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the review request\'s "decision" must be accept or reject',
    );
  const keep = Object.hasOwn(record, 'keep_rejected') ? record['keep_rejected'] : undefined;
  if (keep !== undefined && typeof keep !== 'boolean')
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the review request\'s "keep_rejected" must be true or false',
    );
  return { suite, case: id, decision, keepRejected: keep === true };
}
