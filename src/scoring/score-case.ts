import { neverNotOffered } from './never-not-offered.js';
import { schemasFromTools } from './schemas-from-tools.js';
import { scoreAgentCalls } from './score-agent-calls.js';
import { scoreCall } from './score-call.js';
import { mergeChecks } from './trajectory/merge-checks.js';
import { scoreTrajectory } from './trajectory/score-trajectory.js';
import type { JudgeRunners, TrajectoryResult } from './trajectory/types.js';
import type { Mismatch, ScoreResult } from './types.js';
import { mockStateAfter } from '../trace/mock-state-after.js';
import type { Interaction } from '../trace/trace.js';
import type { Trajectory } from '../trace/trajectory.js';
import type { CaseResult } from './case-result.js';
import type { ConversationRun } from './conversation-run.js';
import type { ConversationTurn, RunConfig, Suite, SuiteCase } from './suite-types.js';

const emptyTrajectory = (session: string): Trajectory => ({
  sessionId: session,
  turns: [],
  calls: [],
  finalText: '',
  counts: { rounds: 0, calls: 0, byTool: {} },
});

export interface CaseRun {
  readonly session: string;
  readonly trajectory: Trajectory | undefined;
  /** What step limits count when it is more than the trajectory: the run's MCP calls no model call asked for count too. */
  readonly stepsTrajectory?: Trajectory | undefined;
  readonly interactions: readonly Interaction[];
  /** Why the run says nothing about the model (replay miss, upstream failure, an agent that crashed or never reached the model); null when it ran. */
  readonly error: string | null;
  readonly durationMs: number;
  readonly agent: CaseResult['agent'];
  /** Extra failure lines from the driver (the agent timed out). */
  readonly problems: readonly string[];
  /** A conversation case (`turns:`): what was said in each turn and how it ended. */
  readonly conversation?: ConversationRun;
}

/**
 * Scores one case's run: its expected calls with `scoreCall` (direct mode: against all calls of
 * the run, under the case's `multiple_calls` policy; agent mode: against the calls to the expected
 * tools, the best by default, `scoreAgentCalls`) and its trajectory checks with `scoreTrajectory`
 * (suite checks underneath). A case passes when every part present passes; a run that could not
 * happen, or a judge that could not answer, is an `error` rather than a fail.
 */
export async function scoreCase(
  suite: Suite,
  run: RunConfig,
  testCase: SuiteCase,
  index: number,
  outcome: CaseRun,
  options: { readonly now: Date; readonly judges: JudgeRunners },
): Promise<CaseResult> {
  const trajectory = outcome.trajectory ?? emptyTrajectory(outcome.session);
  const captured = outcome.interactions[0]?.request.tools;
  // The suite's tool schemas; else the ones the agent offered the model.
  const schemas =
    Object.keys(run.schemas).length > 0 ? run.schemas : captured ? schemasFromTools(captured) : {};
  const calls = trajectory.calls.map((call) => ({ name: call.name, arguments: call.argumentsRaw }));
  const classic = testCase.expected_tool !== undefined || testCase.expected_calls !== undefined;
  // Agent mode judges an expected call against the agent's calls to that tool; direct mode asks for one call and scores all it got.
  const agentMode = suite.agent !== undefined;
  const scored = withDefaults(suite.defaults, testCase, agentMode);
  const call: ScoreResult | null =
    outcome.error === null && classic
      ? (agentMode ? scoreAgentCalls : scoreCall)(scored, calls, { schemas, now: options.now })
      : null;
  const checks = mergeChecks(suite.checks, testCase);
  const hasChecks =
    checks.expect !== undefined || checks.never !== undefined || checks.judge !== undefined;
  const verdict: TrajectoryResult | null =
    outcome.error === null && hasChecks
      ? await scoreTrajectory(checks, trajectory, {
          schemas,
          now: options.now,
          judges: options.judges,
          ...(outcome.stepsTrajectory ? { stepsTrajectory: outcome.stepsTrajectory } : {}),
        })
      : null;

  const problems = [...outcome.problems];
  if (call && !call.is_correct) problems.push(...callProblems(call));
  if (verdict)
    for (const check of verdict.checks)
      if (check.status !== 'pass' && check.message)
        problems.push(`${check.check}: ${check.message}`);
  const scores = [call?.score, verdict?.score].filter(
    (score): score is number => score !== undefined,
  );
  const score =
    outcome.error !== null
      ? 0
      : scores.length === 0
        ? 1
        : scores.reduce((sum, value) => sum + value, 0) / scores.length;
  const failed =
    outcome.problems.length > 0 || call?.is_correct === false || verdict?.status === 'fail';
  const offered = toolsOffered(outcome.interactions);
  const expected = expectedTools(testCase);
  // Only a run that reached the model says what it was offered; one with no request at all is judged as usual.
  const notOffered =
    outcome.interactions.length > 0 ? expected.filter((tool) => !offered.includes(tool)) : [];
  const idleNever =
    outcome.interactions.length > 0
      ? neverNotOffered(
          checks.never,
          offered,
          [...trajectory.calls, ...(outcome.stepsTrajectory?.calls ?? [])].map((made) => made.name),
        )
      : [];
  problems.unshift(...idleNever);
  if (notOffered.length > 0)
    problems.unshift(
      `${notOffered.length === 1 ? 'the expected tool' : 'the expected tools'} ${notOffered.join(', ')} ${notOffered.length === 1 ? 'was' : 'were'} not offered to the model in this run (offered: ${offered.join(', ') || 'none'})`,
    );
  const judged = failed ? 'fail' : verdict?.status === 'error' ? 'error' : 'pass';
  const status =
    outcome.error !== null
      ? 'error'
      : (notOffered.length > 0 || idleNever.length > 0) && judged !== 'error'
        ? 'unreliable'
        : judged;
  const usage = outcome.interactions.map((interaction) => interaction.response?.usage);
  const mockState = mockStateAfter(outcome.interactions);
  return {
    run: run.name,
    test_id: testCase.test_id,
    index,
    tags: testCase.tags ?? [],
    tools: expected,
    tools_offered: offered,
    session: outcome.session,
    status,
    score: Math.round(score * 1e9) / 1e9,
    call,
    trajectory: verdict,
    calls: trajectory.calls.map((made) => ({
      name: made.name,
      arguments: made.argumentsRaw,
      mocked: made.mocked,
      round: made.turn + 1,
    })),
    ...(mockState ? { mock_state: mockState } : {}),
    problems: outcome.error !== null ? [outcome.error] : problems,
    error: outcome.error,
    duration_ms: Math.round(outcome.durationMs),
    rounds: trajectory.counts.rounds,
    tokens: {
      input: usage.reduce((sum, item) => sum + (item?.inputTokens ?? 0), 0),
      output: usage.reduce((sum, item) => sum + (item?.outputTokens ?? 0), 0),
    },
    agent: outcome.agent,
  };
}

/**
 * A case with the suite's defaults under it, made once per case and defaults object: scoreCall
 * compiles a case the first time it sees the object, so a case merged afresh per scoring would be
 * checked and compiled again every run (`--repeat`, run configurations, watch mode).
 */
const merged = new WeakMap<
  SuiteCase,
  { defaults: Suite['defaults']; agentMode: boolean; testCase: SuiteCase }
>();

/** Agent mode's own default under the suite's: an agent may call a tool more than once (a retry, a second order), and the best call counts. */
const agentDefaults = { multiple_calls: 'best' } as const;

function withDefaults(
  defaults: Suite['defaults'],
  testCase: SuiteCase,
  agentMode: boolean,
): SuiteCase {
  const known = merged.get(testCase);
  if (known?.defaults === defaults && known.agentMode === agentMode) return known.testCase;
  const made = { ...(agentMode ? agentDefaults : {}), ...defaults, ...testCase };
  merged.set(testCase, { defaults, agentMode, testCase: made });
  return made;
}

/** Every tool offered to the model in a run's round trips, by name, first offer first. */
export function toolsOffered(interactions: readonly Interaction[]): string[] {
  const names = new Set<string>();
  for (const interaction of [...interactions].sort(
    (left, right) => left.timing.startedAt - right.timing.startedAt,
  ))
    for (const tool of interaction.request.tools) names.add(tool.name);
  return [...names];
}

/** The tools a case expects, for per-tool gates: expected_tool(s), parallel expected calls, and the calls its trajectory expects — a conversation's turns' included. */
export function expectedTools(testCase: SuiteCase | ConversationTurn): string[] {
  const names = (tool: string | readonly string[] | null | undefined): readonly string[] =>
    tool === null || tool === undefined ? [] : typeof tool === 'string' ? [tool] : tool;
  const trajectory =
    testCase.expect?.mode === 'never'
      ? []
      : (testCase.expect?.calls ?? []).flatMap((expected) =>
          names(typeof expected === 'string' ? expected : expected.tool),
        );
  return [
    ...new Set([
      ...names(testCase.expected_tool),
      ...(testCase.expected_calls ?? []).flatMap((expected) => names(expected.expected_tool)),
      ...trajectory,
      ...((testCase as { readonly turns?: readonly ConversationTurn[] }).turns ?? []).flatMap(
        expectedTools,
      ),
    ]),
  ];
}

/** One line per argument mismatch: `amount: expected 150, got "15" (exact, value_mismatch)`. */
function callProblems(result: ScoreResult): string[] {
  const lines = Object.entries(result.mismatches).map(
    ([path, mismatch]) => `${path}: ${describe(mismatch)}`,
  );
  if (lines.length === 0 && result.error_message) lines.push(result.error_message);
  else if (
    result.reasons.some(
      (reason) =>
        reason === 'extra_call' ||
        reason === 'wrong_tool' ||
        reason === 'missing_tool_call' ||
        reason === 'invalid_json' ||
        reason === 'schema_violation',
    )
  )
    lines.unshift(result.error_message ?? result.reasons.join(', '));
  return lines;
}

function describe(mismatch: Mismatch): string {
  const show = (value: unknown): string =>
    value === undefined ? '(absent)' : JSON.stringify(value);
  return `expected ${show(mismatch.expected)}, got ${show(mismatch.actual)} (${mismatch.strategy}, ${mismatch.reason}${mismatch.detail ? `, ${mismatch.detail}` : ''})`;
}
