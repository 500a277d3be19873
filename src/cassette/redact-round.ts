/**
 * A captured round redacted and parsed, in its two halves: the request (what is keyed and the
 * trace's head) and the answer (decoded, redacted, parsed by the adapter). The trace is parsed
 * from the redacted bytes, so it is exactly what reading the stored row back yields.
 */
import { parseJson } from '../providers/json-access.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import { routeOfStored } from '../providers/route-of-stored.js';
import type {
  Interaction,
  InteractionStatus,
  JsonValue,
  MockedResult,
  RequestSummary,
  Timing,
} from '../trace/trace.js';
import type { CapturedRound } from './captured-round.js';
import { concatChunks } from './concat-chunks.js';
import { decodeContent } from './decode-content.js';
import { headerText } from './header-text.js';
import type { Redactor } from './redact.js';
import { redactDeep, reexpressStream } from './redact-content.js';

/** What building an exchange may hold in memory. */
export interface BuildLimits {
  /** Bytes a compressed body may decode to (`limits.maxDecodedBytes`). */
  readonly maxDecodedBytes: number;
}

// Shared: decoding a whole buffer keeps no state between calls, and making a decoder is not free.
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The request redacted and parsed: the trace's head, and what the store keeps and keys. */
export interface RedactedRequest {
  readonly head: TraceHead;
  /** The body as stored. */
  readonly body: Uint8Array;
  /** The body as keyed: its JSON, or its text when it is not JSON. */
  readonly value: JsonValue;
}

export function redactRequest(
  adapter: ProviderAdapter,
  redactor: Redactor,
  round: CapturedRound,
): RedactedRequest {
  const { request } = round;
  const requestText = decoder.decode(request.body);
  const redactedText = redactor.text(requestText);
  const requestBody = redactedText === requestText ? request.body : encoder.encode(redactedText);
  const requestJson = parseJson(redactedText);
  const route = routeOfStored(adapter, request.method, request.path);
  const head: TraceHead = {
    id: request.id,
    sessionId: request.sessionId,
    provider: adapter.id,
    method: request.method,
    path: redactor.path(request.path),
    request: adapter.parseRequest(requestJson.ok ? requestJson.value : null, route),
    mocked:
      round.mocked && round.mocked.length > 0 ? redactDeep(round.mocked, redactor) : undefined,
    hidden: round.hidden === true,
    read: route?.read === true,
  };
  return { head, body: requestBody, value: requestJson.ok ? requestJson.value : redactedText };
}

/** The trace, with the answer's bytes as stored (absent when no answer came). */
export interface TracedAnswer {
  readonly interaction: Interaction;
  readonly response: (RedactedBody & { readonly storedDecoded: boolean }) | undefined;
}

/** Redacts and parses the answer of a round whose request is redacted (`head`). */
export function traceWithAnswer(
  adapter: ProviderAdapter,
  redactor: Redactor,
  round: CapturedRound,
  head: TraceHead,
  limits: BuildLimits,
): TracedAnswer {
  const { request, upstream, proxyError } = round;
  if (!upstream || upstream.status === undefined || !upstream.headers) {
    const interaction = traceOf(
      head,
      undefined,
      upstream?.ending === 'client-aborted' ? 'aborted' : 'proxy-error',
      proxyError?.status ?? 0,
      redactOptional(redactor, proxyError?.message ?? upstream?.errorMessage),
      {
        startedAt: request.startedAt,
        firstByteMs: undefined,
        totalMs: upstream?.totalMs ?? 0,
      },
    );
    return { interaction, response: undefined };
  }

  const body = concatChunks(upstream.chunks);
  let end = 0;
  const ends = upstream.chunks.map((chunk) => (end += chunk.length));
  const encoding = headerText(upstream.headers, 'content-encoding')?.trim().toLowerCase();
  const compressed = encoding !== undefined && encoding !== 'identity';
  const decoded = decodeContent(body, encoding, limits.maxDecodedBytes);
  // A body over the decode limit is kept by nobody: its compressed bytes could not be checked for secrets either.
  let redacted: RedactedBody;
  if (decoded.truncated) redacted = { body: decoded.bytes, chunkEnds: [], chunkTimes: [] };
  else if (compressed)
    redacted = redactDecoded(redactor, body, ends, decoded.bytes, upstream.chunkTimes);
  else {
    const chunked = redactor.chunks(body, ends);
    redacted = {
      body: chunked.body,
      chunkEnds: chunked.chunkEnds,
      chunkTimes: upstream.chunkTimes,
    };
  }
  const contentType = headerText(upstream.headers, 'content-type')?.toLowerCase();
  const route = routeOfStored(adapter, round.request.method, round.request.path);
  const parse = (bytes: Uint8Array): ReturnType<ProviderAdapter['parseResponse']> =>
    adapter.parseResponse({
      httpStatus: upstream.status as number,
      contentType,
      body: [bytes],
      ending: upstream.ending,
      route,
    });
  // Binary frames (Bedrock's event stream) carry their own lengths and CRCs: a secret replaced in their bytes breaks them.
  const framesBroken =
    adapter.binaryBodies === true &&
    redacted.body !== body &&
    (contentType?.includes('application/vnd.amazon.eventstream') ?? false);
  let parsed = parse(redacted.body === body || framesBroken ? decoded.bytes : redacted.body);
  if (
    framesBroken ||
    (parsed.response && redactDeep(parsed.response, redactor) !== parsed.response)
  ) {
    // A secret streamed over several events, or inside frames: no byte range could hold it, so the stream is stored re-expressed without it.
    const source = redacted.body === body || framesBroken ? decoded.bytes : redacted.body;
    const reexpressed = reexpressStream(
      adapter,
      redactor,
      adapter.binaryBodies ? Buffer.from(source).toString('latin1') : decoder.decode(source),
      route,
    );
    if (reexpressed === undefined)
      throw new Error(
        'a secret spans several stream events of a stream that cannot be re-expressed (cut or errored), so it cannot be stored without it',
      );
    const bytes = adapter.binaryBodies
      ? new Uint8Array(Buffer.from(reexpressed, 'latin1'))
      : encoder.encode(reexpressed);
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
  // A compressed body that needed redaction is stored decoded.
  const storedDecoded = compressed && redacted.body !== body;
  const interaction = traceOf(
    head,
    parsed.response,
    status,
    upstream.status,
    redactOptional(redactor, truncation ?? decoded.error ?? parsed.error),
    {
      startedAt: request.startedAt,
      firstByteMs: upstream.firstByteMs,
      totalMs: upstream.totalMs,
    },
  );
  const { chunkEnds, chunkTimes } = redacted;
  return { interaction, response: { body: redacted.body, chunkEnds, chunkTimes, storedDecoded } };
}

/*
 * The trace is one object literal, not `{ ...head, response, status, … }`: on Node 20 spreading
 * an object that was itself built with conditional spreads and adding fields after it cost 6–10 µs
 * a round more (in one process, side by side), a quarter of what building a whole answer costs.
 */
/** The fields of a trace known before the response is read. */
export interface TraceHead {
  readonly id: string;
  readonly sessionId: string;
  readonly provider: Interaction['provider'];
  readonly method: string;
  readonly path: string;
  readonly request: RequestSummary;
  readonly mocked: readonly MockedResult[] | undefined;
  readonly hidden: boolean;
  /** A recorded read (`WireRoute.read`). */
  readonly read: boolean;
}

function traceOf(
  head: TraceHead,
  response: Interaction['response'],
  status: InteractionStatus,
  httpStatus: number,
  error: string | undefined,
  timing: Timing,
): Interaction {
  const { id, sessionId, provider, method, path, request, mocked, hidden, read } = head;
  const trace = {
    id,
    sessionId,
    provider,
    method,
    path,
    request,
    response,
    status,
    httpStatus,
    error,
    timing,
  };
  // What a round of mock tools adds comes last: one literal for the common shape.
  if (mocked === undefined && !hidden && !read) return trace;
  return Object.assign(
    trace,
    mocked ? { mocked } : {},
    hidden ? { hidden: true } : {},
    read ? { read: true as const } : {},
  );
}

export interface RedactedBody {
  readonly body: Uint8Array;
  readonly chunkEnds: readonly number[];
  readonly chunkTimes: readonly number[];
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
): RedactedBody {
  const text = decoder.decode(decoded);
  const redactedText = redactor.text(text);
  if (redactedText === text) return { body, chunkEnds: ends, chunkTimes: times };
  const redactedBody = encoder.encode(redactedText);
  const last = times.at(-1);
  return {
    body: redactedBody,
    chunkEnds: last === undefined ? [] : [redactedBody.length],
    chunkTimes: last === undefined ? [] : [last],
  };
}
