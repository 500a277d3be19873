import { isMap } from 'yaml';
import { CalltapeError } from '../errors.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { caseIndex } from './edit-draft.js';
import { loadSuite } from './load-suite.js';
import { openSuiteDocument, saveSuiteDocument } from './suite-document.js';

/** What a review decides: ids to accept and to reject (or every pending draft). */
export interface ReviewDecisions {
  readonly accept: readonly string[] | 'all';
  readonly reject: readonly string[] | 'all';
  /** Keep rejected drafts as `review: rejected` instead of removing them. */
  readonly keepRejected: boolean;
}

/**
 * Applies review decisions to a suite file in place: an accepted draft loses its `review` mark
 * (its provenance stays) and becomes an ordinary case; a rejected one is removed, or marked
 * `review: rejected`. Every id is checked before anything is written (an unknown id, one that is
 * no draft, one both accepted and rejected: CONFIG_INVALID naming the file and the case), and
 * the file is replaced whole, so a refused review changes nothing.
 */
export function reviewDrafts(
  path: string,
  decisions: ReviewDecisions,
  cwd: string,
): { accepted: string[]; rejected: string[] } {
  const suite = loadSuite(path, cwd);
  const pending = suite.drafts
    .filter((draft) => draft.review === 'pending')
    .map((draft) => draft.test_id);
  const accepted = decisions.accept === 'all' ? pending : [...new Set(decisions.accept)];
  const rejected =
    decisions.reject === 'all'
      ? pending.filter((id) => !accepted.includes(id))
      : [...new Set(decisions.reject)];
  for (const id of [...accepted, ...rejected]) checkDraft(suite, id, pending);
  const both = accepted.find((id) => rejected.includes(id));
  if (both !== undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${suite.file}: case "${both}": both accepted and rejected`,
    );
  const document = openSuiteDocument(suite.file);
  const decided = new Set([...accepted, ...rejected]);
  for (const id of decided) {
    const index = caseIndex(document, id);
    const item = document.cases.items[index];
    if (!isMap(item)) continue;
    if (accepted.includes(id)) item.delete('review');
    else if (decisions.keepRejected) item.set('review', 'rejected');
    else document.cases.items.splice(index, 1);
  }
  saveSuiteDocument(document);
  return { accepted, rejected };
}

function checkDraft(suite: Suite, id: string, pending: readonly string[]): void {
  const listed =
    pending.length > 0 ? `pending: ${pending.join(', ')}` : 'no case is pending review';
  const draft: SuiteCase | undefined = suite.drafts.find((testCase) => testCase.test_id === id);
  if (draft) return;
  if (suite.cases.some((testCase) => testCase.test_id === id))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${suite.file}: case "${id}": review: not a draft (it is already an ordinary case); ${listed}`,
    );
  throw new CalltapeError(
    'CONFIG_INVALID',
    `${suite.file}: case "${id}": no such case; ${listed}`,
    'calltape review <suite> --list shows every draft.',
  );
}
