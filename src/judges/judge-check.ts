import type { CodeJudges } from './code-judges.js';
import { scoreCase } from '../scoring/score-case.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { CheckJudgeDefinition, JudgeOutcome } from './judge-definition.js';
import type { LoadedRun } from './judge-definition.js';

/**
 * A suite's deterministic checks as a judge: the case whose test_id is the run's session id (the
 * last path segment, for `<configuration>/<test_id>` sessions) is scored on the run exactly as
 * `calltape score` would score it. Its score makes it a score judge too. A case that only an LLM
 * rubric decides cannot be judged here (no model is asked): that is an error, not a verdict.
 */
export async function judgeCheck(
  judge: CheckJudgeDefinition,
  run: LoadedRun,
  codeJudges: CodeJudges,
): Promise<JudgeOutcome> {
  const [trajectory] = buildTrajectories(run.interactions);
  const session = trajectory?.sessionId ?? '';
  const testId = session.split('/').at(-1) ?? session;
  const index = judge.suite.cases.findIndex((item) => item.test_id === testId);
  const testCase = judge.suite.cases[index];
  const config =
    judge.suite.runs.find((item) => session.startsWith(`${item.name}/`)) ?? judge.suite.runs[0];
  if (!testCase || !config)
    throw new Error(`${judge.suite.file} has no case "${testId}" for ${run.rating.run}`);
  const result = await scoreCase(
    judge.suite,
    config,
    testCase,
    index,
    {
      session,
      trajectory,
      interactions: run.interactions,
      error: null,
      durationMs: 0,
      agent: null,
      problems: [],
    },
    { now: judge.now, judges: { code: codeJudges.run } },
  );
  // A run that was not offered the expected tool cannot be judged by the check either.
  if (result.status === 'error' || result.status === 'unreliable')
    throw new Error(result.problems[0] ?? result.error ?? 'the case could not be scored');
  return {
    verdict: result.status,
    score: result.score,
    samples: [result.status === 'pass'],
    reason: result.problems[0] ?? null,
    error: null,
  };
}
