import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { JsonValue } from '../trace/trace.js';
import { buildRedactedExchange, type BuildLimits } from './build-exchange.js';
import type { CapturedRound } from './captured-round.js';
import { findLeakedSecret } from './find-leaked-secret.js';
import type { MatchKey } from './match-key.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { credentialValues } from './credential-values.js';
import type { Redactor } from './redact.js';

/**
 * The exchange the store writes: built as `buildExchange` builds it, then searched for every
 * credential the agent sent (taken from the headers and path once for both). Throws rather than
 * return an exchange that still holds one, so a redaction rule that misses a key costs the
 * recording, never the key.
 */
export function buildStoredExchange(
  adapter: ProviderAdapter,
  baseRedactor: Redactor,
  round: CapturedRound,
  matchFor: (body: JsonValue, path: string) => MatchKey,
  limits: BuildLimits,
): RecordedExchange {
  const { request } = round;
  const secrets = credentialValues(request.headers, request.path, baseRedactor.secretHeaders);
  const exchange = buildRedactedExchange(
    adapter,
    baseRedactor.withSecrets(secrets),
    round,
    matchFor,
    limits,
  );
  const leak = findLeakedSecret(exchange, secrets);
  if (leak)
    throw new Error(
      `refused to store ${request.method} ${exchange.interaction.path}: a credential the agent sent appears in the ${leak}; add a redact.bodyPatterns rule that matches it`,
    );
  return exchange;
}
