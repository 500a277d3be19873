import type { JsonValue, ProviderId } from '../trace/trace.js';

/** The closed set of reasons a live call or session fails a policy: metric labels and reports count them. */
export const policyReasons = [
  'invalid_json',
  'incomplete_call',
  'undeclared_tool',
  'schema_violation',
  'missing_argument',
  'out_of_range',
  'not_a_number',
  'value_mismatch',
  'forbidden_call',
  'unlisted_tool',
  'too_many_steps',
  'too_many_rounds',
  'tool_limit_exceeded',
  'repeated_call',
  'case_failed',
  'case_error',
  'judge_failed',
  'judge_error',
  'scoring_error',
] as const;
export type PolicyReason = (typeof policyReasons)[number];

/** One policy a call or session did not meet, and where. */
export interface PolicyFailure {
  readonly policy: string;
  readonly reason: PolicyReason;
  /** The problem in words, for people. */
  readonly message: string;
  /** The argument path, when one argument is to blame. */
  readonly path?: string;
  readonly expected?: JsonValue;
  readonly actual?: JsonValue;
}

/** How one live tool call fared against the call policies. */
export interface CallVerdict {
  readonly at: number;
  readonly interactionId: string;
  readonly sessionId: string;
  readonly wire: ProviderId;
  readonly model: string;
  readonly tool: string;
  /** Position of the call in its turn. */
  readonly callIndex: number;
  /** The argument text as the model produced it, redacted. */
  readonly arguments: string;
  readonly mocked: boolean;
  /** `error`: scoring the call (or its round) threw; the failure with reason `scoring_error` says why. No verdict on the agent. */
  readonly verdict: 'pass' | 'fail' | 'error';
  /** Mean of the evaluated policies' scores, in [0, 1]. */
  readonly score: number;
  /** Ids of the policies that evaluated this call (sampling may leave some out). */
  readonly evaluated: readonly string[];
  readonly failures: readonly PolicyFailure[];
}

/** One call of a session's run, with how it fared against the call policies. */
export interface TrajectoryStep {
  /** The LLM round trip the call was made in, counting from 1 (as every report shows turns). */
  readonly turn: number;
  readonly tool: string;
  readonly arguments: string;
  readonly verdict: 'pass' | 'fail' | 'error' | 'unscored';
  /** `policy: message` of each failure (empty when it passed). */
  readonly failures: readonly string[];
  /** The provider ran the tool itself (a hosted tool): no call policy scores it. */
  readonly hosted?: true;
  /** The MCP server that ran the call, where one did (a hosted MCP call's server label, or the `/mcp/<name>` route's server). */
  readonly server?: string;
  /** An MCP call the proxy relayed that no model call in the session asked for (the agent made it on its own). */
  readonly unasked?: true;
  /** What the tool's result said, when the run holds one: `failed` reads `isError`, an error status or an `{"error": …}` result. */
  readonly outcome?: 'succeeded' | 'failed';
}

/** How a session (an agent run) fared against the session policies, once it went idle. */
export interface SessionVerdict {
  readonly sessionId: string;
  /** The ground-truth case it was tagged with, if any. */
  readonly caseId: string | undefined;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly model: string;
  /** `error`: a judge or case could not decide, and nothing failed. */
  readonly verdict: 'pass' | 'fail' | 'error';
  readonly score: number;
  readonly turns: number;
  readonly calls: number;
  readonly evaluated: readonly string[];
  readonly failures: readonly PolicyFailure[];
  /** The run, compact: each call with its turn and call verdict. */
  readonly trajectory: readonly TrajectoryStep[];
}

/**
 * Reasons that mean a policy could not decide (a judge or case that did not answer, a call whose
 * scoring threw): no verdict on the agent.
 */
export const undecidedReasons: ReadonlySet<PolicyReason> = new Set([
  'judge_error',
  'case_error',
  'scoring_error',
]);

/** The `policy` of a `scoring_error` failure: no one policy is to blame when scoring itself threw. */
export const scoringErrorPolicy = '(scoring)';

/** Whether `policy` failed (decided against the call or session) among these failures. */
export function policyFailed(failures: readonly PolicyFailure[], policy: string): boolean {
  return failures.some(
    (failure) => failure.policy === policy && !undecidedReasons.has(failure.reason),
  );
}

/**
 * Whether a call verdict is shown (feed, dashboard): when a policy evaluated the call, or when
 * scoring it failed (`error`), which is never dropped silently. Calls no policy applied to are not.
 */
export function shownVerdict(verdict: CallVerdict): boolean {
  return verdict.evaluated.length > 0 || verdict.verdict === 'error';
}
