import type { CallExpectation, Expectations, LlmJudgeSpec } from '../scoring/trajectory/types.js';
import type { ArgumentRule } from '../scoring/types.js';
import type { Suite } from '../scoring/suite-types.js';
import type { JsonValue } from '../trace/trace.js';

/**
 * A constraint on one argument of live calls, where there is no expected value: a numeric
 * range, or one of the scoring engine's matchers with the value (or values) it compares to.
 */
export interface ArgumentConstraint extends ArgumentRule {
  /** The argument must be present. Default false: an absent argument is the schema policy's business. */
  readonly required?: boolean;
  /** Numeric bounds, inclusive, after coercing the value by the tool's schema (a numeric string counts). */
  readonly min?: number;
  readonly max?: number;
  /** What a matcher compares the value with (e.g. the reference text of a `semantic` rule). */
  readonly value?: JsonValue;
}

interface PolicyBase {
  /** Stable name: metrics labels, reports and alerts use it. */
  readonly id: string;
  /** Alert when this policy's pass rate over the alert window drops below it (0..1). */
  readonly threshold?: number;
  /** Fraction of calls (or sessions) evaluated, 0..1 (default 1). Required below 1 for LLM judges and semantic rules. */
  readonly sample?: number;
}

/** Every call is valid against the JSON Schema the request declared for its tool. */
export interface SchemaPolicy extends PolicyBase {
  readonly kind: 'schema';
  /** Only these tools (default: all). */
  readonly tools?: readonly string[];
}

/** Per-argument constraints on one tool's calls. */
export interface ArgumentsPolicy extends PolicyBase {
  readonly kind: 'arguments';
  readonly tool: string | readonly string[];
  readonly arguments: { readonly [path: string]: ArgumentConstraint };
}

/** Calls that must never be made: tool names, or names with argument conditions. */
export interface NeverPolicy extends PolicyBase {
  readonly kind: 'never';
  readonly tools: readonly CallExpectation[];
}

/** The only tools a call may name. */
export interface AllowPolicy extends PolicyBase {
  readonly kind: 'allow';
  readonly tools: readonly string[];
}

/** Step and loop limits per session, checked when the session ends. */
export interface StepsPolicy
  extends
    PolicyBase,
    Pick<
      Expectations,
      'max_steps' | 'max_rounds' | 'max_turns' | 'max_calls_per_tool' | 'max_repeats'
    > {
  readonly kind: 'steps';
}

/** Ground-truth cases, applied to sessions tagged with a case id (`x-calltape-case`, or a session id equal to a case id). */
export interface CasesPolicy extends PolicyBase {
  readonly kind: 'cases';
  /** Suite files (absolute after loading). */
  readonly suites: readonly string[];
}

/** A code judge (`code`) or an LLM judge (`rubric`, needs `sample`), run on each session that ends. */
export interface JudgePolicy extends PolicyBase {
  readonly kind: 'judge';
  /** Module exporting `judge(trajectory, testCase)`; absolute after loading. */
  readonly code?: string;
  readonly timeout_ms?: number;
  readonly rubric?: string;
  readonly model?: LlmJudgeSpec['model'];
}

export type Policy =
  | SchemaPolicy
  | ArgumentsPolicy
  | NeverPolicy
  | AllowPolicy
  | StepsPolicy
  | CasesPolicy
  | JudgePolicy;
export type CallPolicy = SchemaPolicy | ArgumentsPolicy | NeverPolicy | AllowPolicy;
export type SessionPolicy = StepsPolicy | CasesPolicy | JudgePolicy;

export const callPolicyKinds: ReadonlySet<Policy['kind']> = new Set([
  'schema',
  'arguments',
  'never',
  'allow',
]);

export function isCallPolicy(policy: Policy): policy is CallPolicy {
  return callPolicyKinds.has(policy.kind);
}

/** The policies file, loaded and checked: plain data, so it crosses to the scoring thread. */
export interface Policies {
  /** Absolute path of the file, for messages. */
  readonly file: string;
  /** A session ends when no round trip arrived for this long; its trajectory checks run then. */
  readonly sessionIdleMs: number;
  /** Open sessions kept at most; beyond it the longest-idle one ends early. */
  readonly maxOpenSessions: number;
  readonly policies: readonly Policy[];
  /** Suites of `cases` policies, loaded. */
  readonly suites: readonly Suite[];
  readonly judge: {
    readonly model: string;
    readonly apiKeyEnv: string | undefined;
    readonly embeddingModel: string;
  };
  readonly alerts: AlertSettings | undefined;
}

export interface AlertSettings {
  readonly webhook: string;
  readonly windowMs: number;
  /** Fewer evaluations than this in the window never alert. */
  readonly minCalls: number;
  readonly cooldownMs: number;
}
