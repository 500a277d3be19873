import { parseJson } from '../providers/json-access.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { Interaction, InteractionStatus, JsonValue } from '../trace/trace.js';
import type { CapturedRound } from './captured-round.js';
import type { MatchKey } from './match-key.js';
import { decodeContent } from './decode-content.js';
import { headerText } from './header-text.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { credentialValues, type Redactor } from './redact.js';
import { redactDeep, reexpressStream } from './redact-content.js';

/** What building an exchange may hold in memory. */
export interface BuildLimits {
  /** Bytes a compressed body may decode to (`limits.maxDecodedBytes`). */
  readonly maxDecodedBytes: number;
}

// One of each per module: constructing them showed in profiles of the workers that build exchanges.
const utf8 = new TextDecoder();
const utf8Bytes = new TextEncoder();

const defaultLimits: BuildLimits = { maxDecodedBytes: 256 * 1024 * 1024 };

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
  const { request, upstream, proxyError } = round;
  const redactor = baseRedactor.withSecrets(
    credentialValues(request.headers, request.path, [...baseRedactor.secretHeaders]),
  );
  const requestText = utf8.decode(request.body);
  const redactedText = redactor.text(requestText);
  const requestBody = redactedText === requestText ? request.body : utf8Bytes.encode(redactedText);
  const requestJson = parseJson(redactedText);
  const path = redactor.path(request.path);
  // Keyed from the same redacted text the summary is parsed from: decoded, redacted and parsed once.
  const match = round.match ?? matchFor?.(requestJson.ok ? requestJson.value : redactedText, path);
  const base = {
    id: request.id,
    sessionId: request.sessionId,
    provider: adapter.id,
    method: request.method,
    path,
    request: adapter.parseRequest(requestJson.ok ? requestJson.value : null),
    ...(round.mocked && round.mocked.length > 0
      ? { mocked: redactDeep(round.mocked, redactor) }
      : {}),
    ...(round.hidden ? { hidden: true } : {}),
  };
  const storedRequest = { headers: redactor.headers(request.headers), body: requestBody };
  const redactBytes = (bytes: Uint8Array): Uint8Array =>
    utf8Bytes.encode(redactor.text(utf8.decode(bytes)));
  const agentView = round.agentView && {
    ...(round.agentView.request ? { request: redactBytes(round.agentView.request) } : {}),
    ...(round.agentView.response ? { response: redactBytes(round.agentView.response) } : {}),
  };

  if (!upstream || upstream.status === undefined || !upstream.headers) {
    const interaction: Interaction = {
      ...base,
      response: undefined,
      status: upstream?.ending === 'client-aborted' ? 'aborted' : 'proxy-error',
      httpStatus: proxyError?.status ?? 0,
      error: redactOptional(redactor, proxyError?.message ?? upstream?.errorMessage),
      timing: {
        startedAt: request.startedAt,
        firstByteMs: undefined,
        totalMs: upstream?.totalMs ?? 0,
      },
    };
    return {
      interaction,
      match,
      request: storedRequest,
      response: undefined,
      ...(agentView ? { agentView } : {}),
    };
  }

  const body = concat(upstream.chunks);
  let end = 0;
  const ends = upstream.chunks.map((chunk) => (end += chunk.length));
  const encoding = headerText(upstream.headers, 'content-encoding')?.trim().toLowerCase();
  const compressed = encoding !== undefined && encoding !== 'identity';
  const decoded = decodeContent(body, encoding, limits.maxDecodedBytes);
  // A body over the decode limit is kept by nobody: its compressed bytes could not be checked for secrets either.
  let redacted = decoded.truncated
    ? { body: decoded.bytes, chunkEnds: [], chunkTimes: [] }
    : compressed
      ? redactDecoded(redactor, body, ends, decoded.bytes, upstream.chunkTimes)
      : { ...redactor.chunks(body, ends), chunkTimes: upstream.chunkTimes };
  const contentType = headerText(upstream.headers, 'content-type')?.toLowerCase();
  const parse = (bytes: Uint8Array): ReturnType<ProviderAdapter['parseResponse']> =>
    adapter.parseResponse({
      httpStatus: upstream.status as number,
      contentType,
      body: [bytes],
      ending: upstream.ending,
    });
  let parsed = parse(redacted.body === body ? decoded.bytes : redacted.body);
  if (parsed.response && redactDeep(parsed.response, redactor) !== parsed.response) {
    // A secret streamed over several events: no byte range held it, so the stream is stored re-expressed without it.
    const reexpressed = reexpressStream(
      adapter,
      redactor,
      utf8.decode(redacted.body === body ? decoded.bytes : redacted.body),
    );
    if (reexpressed === undefined)
      throw new Error(
        'a secret spans several stream events of a stream that cannot be re-expressed (cut or errored), so it cannot be stored without it',
      );
    const bytes = utf8Bytes.encode(reexpressed);
    const last = upstream.chunkTimes.at(-1) ?? upstream.totalMs;
    redacted = { body: bytes, chunkEnds: [bytes.length], chunkTimes: [last] };
    parsed = parse(bytes);
    assertClean(parsed.response, redactor);
  }
  const truncation = upstream.truncated ?? decoded.truncated;
  const status: InteractionStatus = truncation
    ? 'truncated'
    : decoded.error
      ? 'upstream-error'
      : parsed.status;
  const responseHeaders = redactor.headers(upstream.headers);
  // A compressed body that needed redaction is stored decoded.
  if (compressed && redacted.body !== body) delete responseHeaders['content-encoding'];
  const interaction: Interaction = {
    ...base,
    response: parsed.response,
    status,
    httpStatus: upstream.status,
    error: redactOptional(redactor, truncation ?? decoded.error ?? parsed.error),
    timing: {
      startedAt: request.startedAt,
      firstByteMs: upstream.firstByteMs,
      totalMs: upstream.totalMs,
    },
  };
  return {
    interaction,
    match,
    request: storedRequest,
    ...(agentView ? { agentView } : {}),
    response: {
      headers: responseHeaders,
      body: redacted.body,
      chunks: redacted.chunkEnds.map((chunkEnd, index) => ({
        end: chunkEnd,
        atMs: redacted.chunkTimes[index] ?? upstream.totalMs,
      })),
      ending: upstream.ending,
    },
  };
}

/** A re-expressed stream must come out clean; if the adapter split the text again, nothing is stored. */
function assertClean(response: Interaction['response'], redactor: Redactor): void {
  if (response && redactDeep(response, redactor) !== response)
    throw new Error(
      'a secret spans several stream events and survives re-expression, so the stream cannot be stored without it',
    );
}

function redactOptional(redactor: Redactor, text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactor.text(text);
}

/**
 * A compressed body whose decoded text needs redaction is stored decoded (a secret cannot be cut
 * out of compressed bytes); its chunk timings collapse into one chunk at the last arrival.
 */
function redactDecoded(
  redactor: Redactor,
  body: Uint8Array,
  ends: readonly number[],
  decoded: Uint8Array,
  times: readonly number[],
): { body: Uint8Array; chunkEnds: readonly number[]; chunkTimes: readonly number[] } {
  const text = utf8.decode(decoded);
  const redactedText = redactor.text(text);
  if (redactedText === text) return { body, chunkEnds: ends, chunkTimes: times };
  const redactedBody = utf8Bytes.encode(redactedText);
  const last = times.at(-1);
  return {
    body: redactedBody,
    chunkEnds: last === undefined ? [] : [redactedBody.length],
    chunkTimes: last === undefined ? [] : [last],
  };
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/**
 * The first credential the agent sent that is still present in what would be stored, named by
 * where it was found; undefined when the exchange is clean. Redaction rules that miss a key make
 * the store refuse the write rather than keep the secret.
 */
export function findLeakedSecret(
  exchange: RecordedExchange,
  secrets: readonly string[],
): string | undefined {
  const candidates = secrets.filter((secret) => secret.length >= 8);
  if (candidates.length === 0) return undefined;
  const decoder = new TextDecoder();
  const places: [string, string][] = [
    ['request path', exchange.interaction.path],
    ['request headers', JSON.stringify(exchange.request.headers)],
    ['request body', decoder.decode(exchange.request.body)],
    ['canonical request', exchange.match?.canonical ?? ''],
    ['response headers', JSON.stringify(exchange.response?.headers ?? {})],
    [
      'response body',
      exchange.response
        ? decoder.decode(
            decodeContent(
              exchange.response.body,
              headerText(exchange.response.headers, 'content-encoding'),
            ).bytes,
          )
        : '',
    ],
    [
      'agent view',
      exchange.agentView
        ? [exchange.agentView.request, exchange.agentView.response]
            .map((bytes) => (bytes ? decoder.decode(bytes) : ''))
            .join('\n')
        : '',
    ],
    ['trace', JSON.stringify(exchange.interaction)],
  ];
  for (const [place, text] of places)
    if (candidates.some((secret) => text.includes(secret))) return place;
  return undefined;
}
