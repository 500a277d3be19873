import { buildRedactedExchange, type BuildLimits } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { credentialValues, type Redactor } from '../cassette/redact.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { Interaction } from '../trace/trace.js';

/**
 * The trace of a captured round, for shadow scoring: `buildExchange(…).interaction`, redacted by
 * the same rules and the agent's own credentials, built without the parts only the stored
 * exchange holds. The scorer keeps no headers and no agent's view (mock tools), so the request
 * and response headers are not filtered and the agent's view is not redacted: both showed in
 * the scoring worker's profile on every round, and none of it reaches the trace.
 */
export function roundInteraction(
  adapter: ProviderAdapter,
  baseRedactor: Redactor,
  round: CapturedRound,
  limits: BuildLimits,
): Interaction {
  const { request } = round;
  const secrets = credentialValues(request.headers, request.path, baseRedactor.secretHeaders);
  const redactor = traceOnly(baseRedactor.withSecrets(secrets));
  let traced = round;
  if (round.agentView !== undefined) {
    const { agentView: _agentView, ...rest } = round;
    traced = rest;
  }
  return buildRedactedExchange(adapter, redactor, traced, undefined, limits).interaction;
}

/** Trace-only redactors by the redactor they wrap (each credential set's is kept by `withSecrets`). */
const traceOnlyRedactors = new WeakMap<Redactor, Redactor>();

/** The same redactor with header filtering left out: a trace holds no headers. */
function traceOnly(redactor: Redactor): Redactor {
  let wrapped = traceOnlyRedactors.get(redactor);
  if (!wrapped) {
    // A fresh object per call: the exchange builder deletes from the response headers it gets.
    wrapped = { ...redactor, headers: () => ({}) };
    traceOnlyRedactors.set(redactor, wrapped);
  }
  return wrapped;
}
