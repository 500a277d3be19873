import { bodyBytes, bodyText } from '../providers/body-text.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { Interaction, JsonValue } from '../trace/trace.js';
import type { CapturedRound } from './captured-round.js';
import { credentialValues } from './credential-values.js';
export { findLeakedSecret } from './find-leaked-secret.js';
import type { MatchKey } from './match-key.js';
import type { RecordedExchange } from './recorded-exchange.js';
import type { Redactor } from './redact.js';
import { reexpressStream } from './redact-content.js';
import { redactRequest, traceWithAnswer, type BuildLimits } from './redact-round.js';

export type { BuildLimits };

const defaultLimits: BuildLimits = { maxDecodedBytes: 256 * 1024 * 1024 };
// Shared: decoding a whole buffer keeps no state between calls, and making a decoder is not free.
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Turns a captured round into the exchange that is stored: redacts the bodies, decompresses a
 * copy of the response and lets the adapter parse it. The trace is parsed from the redacted
 * bytes, so it is exactly what reading the stored row back yields. This is the one redaction
 * step every sink (cassette, shadow store, feed, dashboard, reports, runs database) is behind:
 * configured and built-in patterns plus every credential the agent sent, on the decoded and
 * reassembled content.
 */
export function buildExchange(
  adapter: ProviderAdapter,
  baseRedactor: Redactor,
  round: CapturedRound,
  matchFor?: (body: JsonValue, path: string) => MatchKey,
  limits: BuildLimits = defaultLimits,
): RecordedExchange {
  const { request } = round;
  const secrets = credentialValues(request.headers, request.path, baseRedactor.secretHeaders);
  return buildRedactedExchange(adapter, baseRedactor.withSecrets(secrets), round, matchFor, limits);
}

/**
 * `buildExchange` with a redactor that already holds the agent's credentials
 * (`withSecrets(credentialValues(…))`), for a caller that needs those values itself.
 */
export function buildRedactedExchange(
  adapter: ProviderAdapter,
  redactor: Redactor,
  round: CapturedRound,
  matchFor: ((body: JsonValue, path: string) => MatchKey) | undefined,
  limits: BuildLimits,
): RecordedExchange {
  const { request, upstream } = round;
  const sent = redactRequest(adapter, redactor, round);
  // Keyed from the same redacted text the summary is parsed from: decoded, redacted and parsed once.
  const match = round.match ?? matchFor?.(sent.value, sent.head.path);
  const { interaction, response } = traceWithAnswer(adapter, redactor, round, sent.head, limits);
  const storedRequest = { headers: redactor.headers(request.headers), body: sent.body };
  const redactBytes = (bytes: Uint8Array): Uint8Array =>
    encoder.encode(redactor.text(decoder.decode(bytes)));
  const agentView = round.agentView && {
    ...(round.agentView.request ? { request: redactBytes(round.agentView.request) } : {}),
    ...(round.agentView.response
      ? {
          response: adapter.binaryBodies
            ? redactBinaryAnswer(adapter, redactor, round.agentView.response)
            : redactBytes(round.agentView.response),
        }
      : {}),
  };
  if (!response || !upstream?.headers)
    return exchangeOf(interaction, match, storedRequest, agentView, undefined);
  const responseHeaders = redactor.headers(upstream.headers);
  if (response.storedDecoded) delete responseHeaders['content-encoding'];
  const { chunkTimes } = response;
  return exchangeOf(interaction, match, storedRequest, agentView, {
    headers: responseHeaders,
    body: response.body,
    chunks: response.chunkEnds.map((chunkEnd, index) => ({
      end: chunkEnd,
      atMs: chunkTimes[index] ?? upstream.totalMs,
    })),
    ending: upstream.ending,
  });
}

/**
 * The trace of a round alone, exactly `buildExchange(…).interaction`: for the consumers that keep
 * no headers and no agent's view (shadow scoring, OpenTelemetry, the trace observer), which
 * therefore skip filtering the headers and redacting the agent's view. Both showed in the
 * shadow worker's profile on every round (issue 21).
 */
export function buildInteraction(
  adapter: ProviderAdapter,
  baseRedactor: Redactor,
  round: CapturedRound,
  limits: BuildLimits = defaultLimits,
): Interaction {
  const { request } = round;
  const secrets = credentialValues(request.headers, request.path, baseRedactor.secretHeaders);
  const redactor = baseRedactor.withSecrets(secrets);
  const { head } = redactRequest(adapter, redactor, round);
  return traceWithAnswer(adapter, redactor, round, head, limits).interaction;
}

function exchangeOf(
  interaction: Interaction,
  match: MatchKey | undefined,
  request: RecordedExchange['request'],
  agentView: RecordedExchange['agentView'],
  response: RecordedExchange['response'],
): RecordedExchange {
  if (!agentView) return { interaction, match, request, response };
  return { interaction, match, request, agentView, response };
}

/**
 * An answer of a wire with binary bodies (Bedrock's event-stream frames) without secrets. Read
 * one character a byte, never as UTF-8, which would break every frame; a frame that held a
 * secret no longer matches its length and CRCs, so such an answer is stored re-expressed
 * without it when it can be, else with the secret replaced in the bytes.
 */
function redactBinaryAnswer(
  adapter: ProviderAdapter,
  redactor: Redactor,
  bytes: Uint8Array,
): Uint8Array {
  const text = bodyText(adapter, bytes);
  const redacted = redactor.text(text);
  if (redacted === text) return bytes;
  const stream = bytes[0] !== 0x7b ? reexpressStream(adapter, redactor, text) : undefined;
  return bodyBytes(adapter, stream ?? redacted);
}
