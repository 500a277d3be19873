import type { Evaluation } from '../otel/gen-ai-spans.js';
import type { SessionSpans } from '../otel/session-spans.js';
import {
  policyFailed,
  undecidedReasons,
  type CallVerdict,
  type PolicyFailure,
  type SessionVerdict,
} from './verdict-types.js';

/** Shadow verdicts of calls as `gen_ai.evaluation.result` events on their sessions' spans. */
export function writeCallVerdicts(spans: SessionSpans, verdicts: readonly CallVerdict[]): void {
  for (const verdict of verdicts)
    evaluatePolicies(spans, verdict, verdict.at, {
      'calltape.interaction.id': verdict.interactionId,
      'gen_ai.tool.name': verdict.tool,
      'calltape.tool.call.index': verdict.callIndex,
    });
}

/** Shadow verdicts of sessions the scorer saw go idle: their events, then each session's span ends. */
export function writeSessionVerdicts(
  spans: SessionSpans,
  verdicts: readonly SessionVerdict[],
): void {
  for (const verdict of verdicts) {
    evaluatePolicies(
      spans,
      verdict,
      verdict.endedAt,
      verdict.caseId === undefined ? {} : { 'calltape.case.id': verdict.caseId },
    );
    spans.end(
      verdict.sessionId,
      verdict.verdict === 'fail' ? 'the session failed a shadow policy' : undefined,
    );
  }
}

/** One event per policy that evaluated the verdict; the score only when a single policy did. */
function evaluatePolicies(
  spans: SessionSpans,
  verdict: CallVerdict | SessionVerdict,
  atMs: number,
  extra: Evaluation['extra'],
): void {
  for (const policy of verdict.evaluated)
    spans.evaluate(
      verdict.sessionId,
      policyEvaluation(
        policy,
        verdict.failures,
        verdict.evaluated.length === 1 ? verdict.score : undefined,
        extra,
      ),
      atMs,
    );
}

/** One policy's verdict on a call or session as an evaluation: pass, fail, or error (it could not decide). */
export function policyEvaluation(
  policy: string,
  failures: readonly PolicyFailure[],
  score: number | undefined,
  extra: Evaluation['extra'],
): Evaluation {
  const own = failures.filter((failure) => failure.policy === policy);
  const undecided = own.length > 0 && own.every((failure) => undecidedReasons.has(failure.reason));
  const label = policyFailed(failures, policy) ? 'fail' : undecided ? 'error' : 'pass';
  return {
    name: policy,
    label,
    ...(score === undefined ? {} : { score }),
    ...(own.length === 0 ? {} : { explanation: own.map((failure) => failure.message).join('; ') }),
    ...(undecided ? { errorType: own[0]?.reason ?? 'undecided' } : {}),
    ...(extra === undefined ? {} : { extra }),
  };
}
