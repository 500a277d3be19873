import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';
import type { ArgumentRule, Mismatch, ReasonCode, ScoreOptions } from '../types.js';

/**
 * One expected (or forbidden) tool call: the tool, optionally argument expectations matched
 * with every strategy of the call scorer, and how many times. A bare string is a tool name.
 */
export interface CallExpectationObject {
  /** The tool's name, or several acceptable names; `*` is a glob (`search_*`). */
  readonly tool: string | readonly string[];
  /** Expected argument values (partial: arguments not listed are ignored unless `extra_arguments` says otherwise). */
  readonly arguments?: { readonly [name: string]: JsonValue };
  readonly rules?: { readonly [path: string]: ArgumentRule };
  /** Default `ignore`: an expectation names what matters and leaves the rest free. */
  readonly extra_arguments?: 'ignore' | 'penalize' | 'fail';
  /** Minimum argument score for a call to count as this expectation (default 1). */
  readonly pass_threshold?: number;
  /** Exactly this many matching calls (sets min and max). */
  readonly times?: number;
  /** At least this many matching calls (default 1). */
  readonly min?: number;
  /** At most this many matching calls. */
  readonly max?: number;
}
export type CallExpectation = string | CallExpectationObject;

/**
 * How the expected calls relate to the calls made:
 * - `all` — every expectation was met (any order), calls consumed one-to-one;
 * - `superset` — the calls made contain the expected ones (the same test as `all`, phrased as sets);
 * - `any` — at least one expectation was met;
 * - `ordered` — met in the listed order, other calls allowed between;
 * - `exact` — exactly this sequence and nothing else;
 * - `subset` — every call made is one of the expected (expectations may go unmet);
 * - `unordered` — one-to-one in any order: every expectation met once and no other call made;
 * - `never` — no call matches any expectation.
 */
export type CallMode =
  'all' | 'any' | 'ordered' | 'exact' | 'never' | 'subset' | 'superset' | 'unordered';

/** A list of expectations, or a list of such lists. */
export type ExpectationChains =
  readonly CallExpectation[] | readonly (readonly CallExpectation[])[];

/** The `expect` block of a case: expected calls, order and step limits. */
export interface Expectations {
  readonly calls?: readonly CallExpectation[];
  /** Default `all`. */
  readonly mode?: CallMode;
  /** Whether a call to a tool outside `calls` fails the check (default `allow`). */
  readonly unlisted?: 'allow' | 'fail';
  /** The calls check passes when its partial score (fraction of expectations met) reaches this (default 1: all). */
  readonly pass_threshold?: number;
  /** `[A, B, C]`: a call matching A came in an earlier round than the first call matching B, and so on; or a list of such chains. */
  readonly before?: ExpectationChains;
  /** `[A, B]`: no call matching A came in an earlier round than a call matching B ("never refund before lookup": `[refund, lookup]`); or a list of such pairs/chains. */
  readonly never_before?: ExpectationChains;
  /** `[A, B]`: one round (LLM round trip) holds a call matching each (made in parallel, one call each); or a list of such groups. */
  readonly same_round?: ExpectationChains;
  /** Old name of `same_round`, still read (suites get a warning). */
  readonly same_turn?: ExpectationChains;
  /** Tool calls in the whole run. */
  readonly min_steps?: number;
  readonly max_steps?: number;
  /** Rounds: LLM round trips (model responses). */
  readonly min_rounds?: number;
  readonly max_rounds?: number;
  /** Old name of `min_rounds`, still read (suites get a warning). */
  readonly min_turns?: number;
  /** Old name of `max_rounds`, still read (suites get a warning). */
  readonly max_turns?: number;
  /** User messages in the conversation, as the run's requests show it. */
  readonly min_user_turns?: number;
  readonly max_user_turns?: number;
  /** Calls to any one tool, or per tool name. */
  readonly max_calls_per_tool?: number | { readonly [tool: string]: number };
  /** Longest run of identical consecutive calls (same tool, same arguments) allowed: loops. */
  readonly max_repeats?: number;
  /** Most calls whose result was an error (`is_error`, or an `{"error": …}` result). */
  readonly max_failed_calls?: number;
  /** Tools (names or globs) that were called and whose last call succeeded (an earlier failure retried is fine). */
  readonly must_succeed?: readonly string[];
  /** `true`: every failed call was followed by a successful call of the same tool later in the run. */
  readonly recovered?: boolean;
}

/** A user module exporting `judge(trajectory, testCase)`. */
export interface CodeJudgeSpec {
  /** Path of a `.js`/`.mjs` module (`.ts` when a TypeScript loader is active), relative to the suite file. */
  readonly code: string;
  /** Default 5000. */
  readonly timeout_ms?: number;
}
/** A rubric judged by a model through the proxy; its verdict is recorded and replayed like any round trip. */
export interface LlmJudgeSpec {
  readonly rubric: string;
  /** Default: the configured judge model. */
  readonly model?: string;
}
export type JudgeSpec = CodeJudgeSpec | LlmJudgeSpec;

/** What a judge answers. */
export interface JudgeVerdict {
  readonly pass: boolean;
  /** In [0, 1]; defaults to 1 for pass, 0 for fail. */
  readonly score?: number;
  readonly reason?: string;
}

/** The trajectory part of a test case (other fields, like `test_id` or `prompt`, are handed to judges untouched). */
export interface TrajectoryCase {
  readonly test_id?: string;
  readonly expect?: Expectations;
  /** Calls that must never be made: names, or names with argument conditions. */
  readonly never?: readonly CallExpectation[];
  readonly judge?: JudgeSpec | readonly JudgeSpec[];
  readonly [field: string]: unknown;
}

/** Runs judges: injected by the caller, since judges do I/O (a module, a model). */
export interface JudgeRunners {
  readonly code?: (
    spec: CodeJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
  readonly llm?: (
    spec: LlmJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
}

export interface TrajectoryOptions extends ScoreOptions {
  readonly judges?: JudgeRunners;
  /**
   * What step limits count, when it is more than the trajectory: the run's MCP calls no model
   * call asked for put in as the steps they were (`withUnaskedCalls`). Every other check and
   * judge reads the trajectory itself.
   */
  readonly stepsTrajectory?: Trajectory;
}

/** Trajectory reason codes: a closed set reports can count. */
export const trajectoryReasonCodes = [
  'missing_call',
  'too_many_calls',
  'unexpected_call',
  'unlisted_tool',
  'forbidden_call',
  'out_of_order',
  'too_few_steps',
  'too_many_steps',
  'too_many_rounds',
  'too_few_rounds',
  'too_few_user_turns',
  'too_many_user_turns',
  'forbidden_order',
  'not_same_round',
  'too_many_failed_calls',
  'tool_failed',
  'unrecovered_failure',
  'tool_limit_exceeded',
  'repeated_call',
  'judge_failed',
  'judge_error',
] as const;
export type TrajectoryReason = (typeof trajectoryReasonCodes)[number];

/** Where a call sits in the run: its step, round and index within the round. */
export interface CallRef {
  readonly step: number;
  /** The LLM round trip, counting from 0. */
  readonly round: number;
  readonly index: number;
  readonly tool: string;
  readonly id: string | null;
}

/** Why the closest call did not meet an expectation. */
export interface NearMiss {
  readonly call: CallRef;
  readonly score: number;
  readonly reasons: readonly ReasonCode[];
  readonly mismatches: { readonly [path: string]: Mismatch };
}

/** One expected call (one of `times`) and what met it. */
export interface ExpectationOutcome {
  /** Index into `calls` (or `never`, or the `before` chain). */
  readonly expectation: number;
  readonly tool: string;
  /** Which of the `times` this is (0-based). */
  readonly occurrence: number;
  readonly matched: CallRef | null;
  /** When unmatched: the closest call to the tool and why it fell short (null: the tool was never called). */
  readonly closest: NearMiss | null;
}

export type CheckName = 'calls' | 'never' | 'order' | 'grouping' | 'steps' | 'status' | 'judge';

export interface CheckResult {
  readonly check: CheckName;
  /** `error`: the check could not decide (a judge that failed to answer) — not a verdict on the agent. */
  readonly status: 'pass' | 'fail' | 'error';
  /** Partial credit in [0, 1]: the fraction of expectations met. */
  readonly score: number;
  /** Distinct, sorted. */
  readonly reasons: readonly TrajectoryReason[];
  /** The first problem in words (null when the check passed). */
  readonly message: string | null;
  readonly details: { readonly [key: string]: JsonValue };
}

export interface TrajectoryResult {
  /** True when every check passed. */
  readonly pass: boolean;
  /** `fail` when any check failed; `error` when none failed but one could not decide; else `pass`. */
  readonly status: 'pass' | 'fail' | 'error';
  /** Mean score of the checks that decided (1 when there were none). */
  readonly score: number;
  readonly reasons: readonly TrajectoryReason[];
  readonly checks: readonly CheckResult[];
}
