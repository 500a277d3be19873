import type { RecordedExchange, StoredHeaders } from '../cassette/recorded-exchange.js';
import type { Redactor } from '../cassette/redact.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { Interaction, InteractionStatus, JsonValue, RequestSummary } from '../trace/trace.js';
import { decodeContent } from './decode-content.js';
import type { UpstreamOutcome } from './forward-upstream.js';

/** The agent's request as the proxy received it. */
export interface AgentRequest {
  readonly id: string;
  readonly sessionId: string;
  readonly method: string;
  /** Path without the `/s/<id>` prefix, query included. */
  readonly path: string;
  readonly headers: StoredHeaders;
  readonly body: Buffer;
  /** The parsed body, when it was valid JSON. */
  readonly json: JsonValue | undefined;
  /** `Date.now()` at arrival. */
  readonly startedAt: number;
}

/**
 * Builds the stored exchange once a round trip is over: redacts, decompresses a copy of the
 * body, and lets the adapter parse it. Runs after the agent has its answer, never on the byte path.
 * The trace is parsed from the redacted bytes, so it matches exactly what is stored.
 */
export function buildExchange(adapter: ProviderAdapter, redactor: Redactor, request: AgentRequest, outcome: UpstreamOutcome | undefined, proxyError: { status: number; message: string } | undefined): RecordedExchange {
  const requestText = request.body.toString('utf8');
  const redactedText = redactor.text(requestText);
  const requestBody = redactedText === requestText ? request.body : Buffer.from(redactedText, 'utf8');
  const requestJson = redactedText === requestText ? request.json : safeParse(redactedText);
  const summary: RequestSummary = adapter.parseRequest(requestJson ?? null);

  const base = { id: request.id, sessionId: request.sessionId, provider: adapter.id, method: request.method, path: request.path, request: summary };
  if (!outcome || outcome.status === undefined || !outcome.headers) {
    const interaction: Interaction = {
      ...base,
      response: undefined,
      status: outcome?.ending === 'client-aborted' ? 'aborted' : 'proxy-error',
      httpStatus: proxyError?.status ?? 0,
      error: proxyError?.message ?? outcome?.error?.message,
      timing: { startedAt: request.startedAt, firstByteMs: undefined, totalMs: outcome?.totalMs ?? 0 },
    };
    return { interaction, request: { headers: request.headers, body: requestBody }, response: undefined };
  }

  let end = 0;
  const raw = { body: Buffer.concat(outcome.chunks as Buffer[]), ends: outcome.chunks.map((chunk) => (end += chunk.length)) };
  const encoding = headerValue(outcome.headers['content-encoding']);
  const decoded = decodeContent(raw.body, encoding);
  // Stored bytes: the original (compressed) body when nothing needs redacting; else the redacted decoded body.
  const redacted = encoding && encoding !== 'identity' ? redactDecoded(redactor, raw, decoded.bytes, outcome.chunkTimes) : { ...redactor.chunks(raw.body, raw.ends), chunkTimes: outcome.chunkTimes };
  const parsedFrom = redacted.body === raw.body ? decoded.bytes : redacted.body;
  const parsed = adapter.parseResponse({
    httpStatus: outcome.status,
    contentType: headerValue(outcome.headers['content-type'])?.toLowerCase(),
    body: [parsedFrom],
    ending: outcome.ending,
  });
  const status: InteractionStatus = decoded.error ? 'upstream-error' : parsed.status;
  const responseHeaders = redactor.headers(outcome.headers);
  if (redacted.body !== raw.body && encoding) delete responseHeaders['content-encoding'];
  const interaction: Interaction = {
    ...base,
    response: parsed.response,
    status,
    httpStatus: outcome.status,
    error: decoded.error ?? parsed.error,
    timing: { startedAt: request.startedAt, firstByteMs: outcome.firstByteMs, totalMs: outcome.totalMs },
  };
  return {
    interaction,
    request: { headers: request.headers, body: requestBody },
    response: {
      headers: responseHeaders,
      body: redacted.body,
      chunks: redacted.chunkEnds.map((chunkEnd, index) => ({ end: chunkEnd, atMs: redacted.chunkTimes[index] ?? outcome.totalMs })),
    },
  };
}

/**
 * A compressed body whose decoded text needs redaction is stored decoded (the secret cannot be
 * cut out of compressed bytes); its chunk timings collapse into one chunk at the last arrival.
 */
function redactDecoded(redactor: Redactor, raw: { body: Buffer; ends: number[] }, decoded: Buffer, times: readonly number[]): { body: Uint8Array; chunkEnds: number[]; chunkTimes: readonly number[] } {
  const text = decoded.toString('utf8');
  const redactedText = redactor.text(text);
  if (redactedText === text) return { body: raw.body, chunkEnds: raw.ends, chunkTimes: times };
  const body = Buffer.from(redactedText, 'utf8');
  const last = times.at(-1);
  return { body, chunkEnds: last === undefined ? [] : [body.length], chunkTimes: last === undefined ? [] : [last] };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function safeParse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
