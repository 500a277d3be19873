import { scoreCase } from '../scoring/score-case.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import type { SessionContext } from './evaluate-session.js';
import type { OpenSession } from './open-sessions.js';

/** The judges a session's policies and cases may call: they do I/O, so they are injected. */
export type SessionJudges = Pick<SessionContext, 'codeJudge' | 'llmJudge'>;

/** A ground-truth case of the policies' suites, with its suite and place in it. */
export interface SuiteCaseEntry {
  readonly suite: Suite;
  readonly testCase: SuiteCase;
  readonly index: number;
}

/** The suites' cases by test id: a live session tagged with an id is scored against that case. */
export function suiteCases(suites: readonly Suite[]): Map<string, SuiteCaseEntry> {
  const cases = new Map<string, SuiteCaseEntry>();
  for (const suite of suites)
    suite.cases.forEach((testCase, index) =>
      cases.set(testCase.test_id, { suite, testCase, index }),
    );
  return cases;
}

/** What an ended session's policies are evaluated with: its case (scored as a suite would) and the judges. */
export function sessionContext(
  session: OpenSession,
  cases: ReadonlyMap<string, SuiteCaseEntry>,
  { codeJudge, llmJudge }: SessionJudges,
): SessionContext {
  return {
    caseId: session.caseId,
    scoreCase: async (caseId, trajectory) => {
      const found = cases.get(caseId);
      const run = found?.suite.runs[0];
      if (!found || !run) return undefined;
      const outcome = {
        session: session.id,
        trajectory,
        interactions: session.interactions,
        error: null,
        durationMs: 0,
        agent: null,
        problems: [],
      };
      // The clock of relative placeholders ({{TODAY}}) is when the session started: the same trace always scores the same.
      const result = await scoreCase(found.suite, run, found.testCase, found.index, outcome, {
        now: new Date(session.startedAt),
        judges: {
          ...(codeJudge ? { code: codeJudge } : {}),
          ...(llmJudge ? { llm: llmJudge } : {}),
        },
      });
      // Live, a session not offered the expected tool is one the case cannot judge: an error, with the problem saying why.
      return {
        status: result.status === 'unreliable' ? 'error' : result.status,
        score: result.score,
        problems: result.problems,
      };
    },
    ...(codeJudge ? { codeJudge } : {}),
    ...(llmJudge ? { llmJudge } : {}),
  };
}
