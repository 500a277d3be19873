import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';
import { expectationObject } from './match-expectation.js';
import { checkOptions } from '../score-call.js';
import { groupingCheck } from './grouping-check.js';
import { orderCheck } from './order-check.js';
import { statusCheck } from './status-check.js';
import { checkTrajectoryCase } from './validate-trajectory-case.js';
import { stepCountCheck } from './step-count-check.js';
import { neverCheck, toolCallCheck } from './tool-call-check.js';
import type {
  CheckResult,
  JudgeSpec,
  JudgeVerdict,
  TrajectoryCase,
  TrajectoryOptions,
  TrajectoryReason,
  TrajectoryResult,
} from './types.js';

const stepLimits = [
  'min_steps',
  'max_steps',
  'min_rounds',
  'max_rounds',
  'min_turns',
  'max_turns',
  'min_user_turns',
  'max_user_turns',
  'max_calls_per_tool',
  'max_repeats',
] as const;
const statusLimits = ['max_failed_calls', 'must_succeed', 'recovered'] as const;

/**
 * Scores a whole run against a case's trajectory checks: expected calls by mode (`expect.calls`),
 * order constraints (`expect.before`), step limits, forbidden calls (`never`) and judges. The
 * deterministic checks are pure; judges run through `options.judges` (injected: they load user
 * code or ask a model). A judge that cannot answer is an `error`, never a fail of the agent —
 * except a code judge that throws or times out, which fails its check with the error as the
 * reason (the judge is the user's own test code, so its failure is the test's).
 */
export async function scoreTrajectory(
  testCase: TrajectoryCase,
  trajectory: Trajectory,
  options: TrajectoryOptions = {},
): Promise<TrajectoryResult> {
  const checks = deterministicChecks(testCase, trajectory, options);
  const judges =
    testCase.judge === undefined
      ? []
      : Array.isArray(testCase.judge)
        ? (testCase.judge as readonly JudgeSpec[])
        : [testCase.judge as JudgeSpec];
  for (const spec of judges) checks.push(await runJudge(spec, trajectory, testCase, options));
  return combine(checks);
}

/**
 * The checks that need nothing but the trajectory, in a fixed order: calls, order, grouping,
 * steps, status, never. The case and options are checked first (once per case object): an
 * unknown key or a rule that needs a value and has none throws a `CalltapeError` naming it.
 */
export function deterministicChecks(
  testCase: TrajectoryCase,
  trajectory: Trajectory,
  options: TrajectoryOptions = {},
): CheckResult[] {
  checkOptions(options, ['judges', 'stepsTrajectory']);
  checkTrajectoryCase(
    testCase,
    typeof testCase.test_id === 'string'
      ? `trajectory case "${testCase.test_id}":`
      : 'trajectory case:',
  );
  const checks: CheckResult[] = [];
  const expect = testCase.expect;
  if (expect?.calls !== undefined) checks.push(toolCallCheck(expect, trajectory, options));
  if (expect?.before !== undefined || expect?.never_before !== undefined)
    checks.push(orderCheck(expect.before, trajectory, options, expect.never_before));
  const sameRound = expect?.same_round ?? expect?.same_turn;
  if (sameRound !== undefined) checks.push(groupingCheck(sameRound, trajectory, options));
  if (expect && stepLimits.some((limit) => expect[limit] !== undefined))
    checks.push(stepCountCheck(expect, options.stepsTrajectory ?? trajectory));
  if (expect && statusLimits.some((limit) => expect[limit] !== undefined))
    checks.push(statusCheck(expect, trajectory));
  if (testCase.never !== undefined)
    checks.push(neverCheck(testCase.never.map(expectationObject), trajectory, options));
  return checks;
}

async function runJudge(
  spec: JudgeSpec,
  trajectory: Trajectory,
  testCase: TrajectoryCase,
  options: TrajectoryOptions,
): Promise<CheckResult> {
  const kind = 'code' in spec ? 'code' : 'llm';
  const what = 'code' in spec ? `code judge ${spec.code}` : 'LLM judge';
  const details: Record<string, JsonValue> = {
    judge: kind,
    ...('code' in spec ? { module: spec.code } : { rubric: spec.rubric }),
  };
  let invoke: (() => Promise<JudgeVerdict>) | undefined;
  if ('code' in spec) {
    const code = options.judges?.code;
    if (code) invoke = () => code(spec, trajectory, testCase);
  } else {
    const llm = options.judges?.llm;
    if (llm) invoke = () => llm(spec, trajectory, testCase);
  }
  if (!invoke)
    return {
      check: 'judge',
      status: 'error',
      score: 0,
      reasons: ['judge_error'],
      message: `${what}: no ${kind} judge runner was given (scoreTrajectory options.judges.${kind})`,
      details,
    };
  let verdict: JudgeVerdict;
  try {
    verdict = await invoke();
    if (typeof verdict !== 'object' || verdict === null || typeof verdict.pass !== 'boolean')
      throw new Error(
        `answered ${JSON.stringify(verdict)?.slice(0, 200)}, not { pass: boolean, score?, reason? }`,
      );
    if (
      verdict.score !== undefined &&
      (typeof verdict.score !== 'number' || !Number.isFinite(verdict.score))
    )
      throw new Error(`answered a score that is not a number: ${JSON.stringify(verdict.score)}`);
  } catch (error) {
    const message = `${what}: ${(error as Error).message}`;
    return {
      check: 'judge',
      status: kind === 'code' ? 'fail' : 'error',
      score: 0,
      reasons: ['judge_error'],
      message,
      details: { ...details, error: (error as Error).message },
    };
  }
  const score = Math.min(1, Math.max(0, verdict.score ?? (verdict.pass ? 1 : 0)));
  return {
    check: 'judge',
    status: verdict.pass ? 'pass' : 'fail',
    score,
    reasons: verdict.pass ? [] : ['judge_failed'],
    message: verdict.pass ? null : `${what}: ${verdict.reason ?? 'failed'}`,
    details: { ...details, pass: verdict.pass, reason: verdict.reason ?? null },
  };
}

function combine(checks: readonly CheckResult[]): TrajectoryResult {
  const decided = checks.filter((check) => check.status !== 'error');
  const failed = checks.some((check) => check.status === 'fail');
  const status = failed
    ? 'fail'
    : checks.some((check) => check.status === 'error')
      ? 'error'
      : 'pass';
  const score =
    decided.length === 0
      ? status === 'error'
        ? 0
        : 1
      : decided.reduce((sum, check) => sum + check.score, 0) / decided.length;
  const reasons = [...new Set<TrajectoryReason>(checks.flatMap((check) => check.reasons))].sort();
  return { pass: status === 'pass', status, score: Math.round(score * 1e9) / 1e9, reasons, checks };
}
