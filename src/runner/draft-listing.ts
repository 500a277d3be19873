import type { SuiteRunResult } from '../report/run-result.js';
import type { Suite } from '../scoring/suite-types.js';

/** The `drafts` field of a run result: present only when the suite has drafts, so other reports stay as they were. */
export function draftListing(suite: Suite): Pick<SuiteRunResult, 'drafts'> {
  return suite.drafts.length === 0
    ? {}
    : {
        drafts: suite.drafts.map((testCase) => ({
          test_id: testCase.test_id,
          review: testCase.review ?? 'pending',
        })),
      };
}
