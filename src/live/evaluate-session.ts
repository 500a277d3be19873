import { stepCountCheck } from '../scoring/trajectory/step-count-check.js';
import type {
  CodeJudgeSpec,
  JudgeVerdict,
  LlmJudgeSpec,
  TrajectoryCase,
  TrajectoryReason,
} from '../scoring/trajectory/types.js';
import type { Trajectory } from '../trace/trajectory.js';
import type { SessionPolicy } from './policy-types.js';
import { sampled } from './sample.js';
import { undecidedReasons, type PolicyFailure, type PolicyReason } from './verdict-types.js';

/** What a session policy may need beyond the trajectory: judges and ground truth, injected (they do I/O). */
export interface SessionContext {
  readonly caseId: string | undefined;
  /**
   * What step limits count, when it is more than the trajectory: the session's MCP calls no
   * model call asked for count as steps too (`withUnaskedCalls`). Judges and cases see the
   * model's trajectory.
   */
  readonly stepsTrajectory?: Trajectory;
  /** Scores the session against its ground-truth case, when the suites have one; undefined when none does. */
  readonly scoreCase?: (
    caseId: string,
    trajectory: Trajectory,
  ) => Promise<
    | {
        readonly status: 'pass' | 'fail' | 'error';
        readonly score: number;
        readonly problems: readonly string[];
      }
    | undefined
  >;
  readonly codeJudge?: (
    spec: CodeJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
  readonly llmJudge?: (
    spec: LlmJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
}

export interface SessionEvaluation {
  readonly evaluated: readonly string[];
  readonly failures: readonly PolicyFailure[];
  readonly score: number;
  readonly verdict: 'pass' | 'fail' | 'error';
}

const stepReasons: readonly [
  'max_steps' | 'max_rounds' | 'max_turns' | 'max_calls_per_tool' | 'max_repeats',
  TrajectoryReason & PolicyReason,
][] = [
  ['max_steps', 'too_many_steps'],
  ['max_rounds', 'too_many_rounds'],
  // The old name, still read.
  ['max_turns', 'too_many_rounds'],
  ['max_calls_per_tool', 'tool_limit_exceeded'],
  ['max_repeats', 'repeated_call'],
];

/**
 * Scores an ended session against the session policies: step and loop limits (the trajectory
 * checks), its ground-truth case when it was tagged with one, code judges and sampled LLM
 * judges. A judge or case that cannot decide is an `error`, never a fail.
 */
export async function evaluateSession(
  policies: readonly SessionPolicy[],
  trajectory: Trajectory,
  context: SessionContext,
): Promise<SessionEvaluation> {
  const evaluated: string[] = [];
  const failures: PolicyFailure[] = [];
  let total = 0;
  let decided = 0;
  let errors = 0;
  for (const policy of policies) {
    if (!sampled(policy.sample, policy.id, trajectory.sessionId)) continue;
    const outcome = await outcomeOf(policy, trajectory, context);
    if (outcome === undefined) continue;
    evaluated.push(policy.id);
    failures.push(...outcome.failures);
    if (outcome.error) errors++;
    else {
      decided++;
      total += outcome.score;
    }
  }
  const failed = failures.some((failure) => !undecidedReasons.has(failure.reason));
  return {
    evaluated,
    failures,
    score: decided === 0 ? 1 : Math.round((total / decided) * 1e9) / 1e9,
    verdict: failed ? 'fail' : errors > 0 ? 'error' : 'pass',
  };
}

async function outcomeOf(
  policy: SessionPolicy,
  trajectory: Trajectory,
  context: SessionContext,
): Promise<{ score: number; failures: PolicyFailure[]; error?: boolean } | undefined> {
  switch (policy.kind) {
    case 'steps': {
      const failures: PolicyFailure[] = [];
      let limits = 0;
      for (const [field, reason] of stepReasons) {
        if (policy[field] === undefined) continue;
        if (field === 'max_turns' && policy.max_rounds !== undefined) continue;
        limits++;
        const check = stepCountCheck(
          { [field]: policy[field] },
          context.stepsTrajectory ?? trajectory,
        );
        if (check.status === 'fail')
          failures.push({ policy: policy.id, reason, message: check.message ?? reason });
      }
      return { score: limits === 0 ? 1 : (limits - failures.length) / limits, failures };
    }
    case 'cases': {
      if (context.caseId === undefined || !context.scoreCase) return undefined;
      const result = await context.scoreCase(context.caseId, trajectory);
      if (!result) return undefined;
      if (result.status === 'pass') return { score: result.score, failures: [] };
      const reason = result.status === 'error' ? 'case_error' : 'case_failed';
      return {
        score: result.score,
        error: result.status === 'error',
        failures: [
          {
            policy: policy.id,
            reason,
            message: `case ${context.caseId}: ${result.problems.join('; ') || result.status}`,
          },
        ],
      };
    }
    case 'judge': {
      const testCase: TrajectoryCase = { test_id: context.caseId ?? trajectory.sessionId };
      try {
        const verdict =
          policy.code !== undefined
            ? await required(context.codeJudge, 'code judges')(
                {
                  code: policy.code,
                  ...(policy.timeout_ms !== undefined ? { timeout_ms: policy.timeout_ms } : {}),
                },
                trajectory,
                testCase,
              )
            : await required(context.llmJudge, 'LLM judges')(
                {
                  rubric: policy.rubric ?? '',
                  ...(policy.model !== undefined ? { model: policy.model } : {}),
                },
                trajectory,
                testCase,
              );
        const score = verdict.score ?? (verdict.pass ? 1 : 0);
        return verdict.pass
          ? { score, failures: [] }
          : {
              score,
              failures: [
                {
                  policy: policy.id,
                  reason: 'judge_failed',
                  message: verdict.reason ?? 'the judge failed the session',
                },
              ],
            };
      } catch (error) {
        return {
          score: 0,
          error: true,
          failures: [
            {
              policy: policy.id,
              reason: 'judge_error',
              message: `the judge could not decide: ${(error as Error).message}`,
            },
          ],
        };
      }
    }
  }
}

function required<T>(runner: T | undefined, what: string): T {
  if (runner === undefined) throw new Error(`${what} are not available here`);
  return runner;
}
