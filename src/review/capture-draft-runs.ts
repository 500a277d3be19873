import { isMap } from 'yaml';
import type { Config } from '../config/config.js';
import type { Logger } from '../logger.js';
import { runSuite } from '../runner/run-suite.js';
import type { CaseResult } from '../scoring/case-result.js';
import { caseIndex } from '../suites/edit-draft.js';
import { loadSuite } from '../suites/load-suite.js';
import { openSuiteDocument, saveSuiteDocument } from '../suites/suite-document.js';

export interface DraftRunOptions {
  readonly config: Config;
  readonly mode: 'record' | 'replay' | 'auto';
  readonly cwd: string;
  readonly logger: Logger;
  /** The key direct mode sends upstream (record, auto); never stored. */
  readonly apiKey?: string;
}

/**
 * Runs drafts through the agent under test the way `calltape test` runs cases (the suite's drive
 * mode, mocks, cassette — each under its own id as the session), so the review can show what the
 * model did beside what the guideline expects. Each draft gets `provenance.captured`: the calls
 * made and whether they meet the draft's expectation. Drafts stay pending; the suite is written
 * whole. Resolves with the results, in draft order.
 */
export async function captureDraftRuns(
  path: string,
  ids: readonly string[],
  options: DraftRunOptions,
): Promise<CaseResult[]> {
  const suite = loadSuite(path, options.cwd);
  const drafts = suite.drafts
    .filter((draft) => ids.includes(draft.test_id))
    .map(({ review: _review, ...draft }) => draft);
  if (drafts.length === 0) return [];
  const run = await runSuite(
    { ...suite, cases: drafts, drafts: [], gates: {} },
    {
      config: options.config,
      mode: options.mode,
      now: suite.now ?? new Date(),
      logger: options.logger,
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    },
  );
  const document = openSuiteDocument(path);
  for (const result of run.cases) {
    const item = document.cases.items[caseIndex(document, result.test_id)];
    if (!isMap(item)) continue;
    item.setIn(
      ['provenance', 'captured'],
      document.document.createNode({
        session: result.session,
        verdict: result.status,
        calls: result.calls.map((call) => `${call.name}(${call.arguments})`),
        ...(result.error ? { error: result.error } : {}),
      }),
    );
  }
  saveSuiteDocument(document);
  return [...run.cases];
}
