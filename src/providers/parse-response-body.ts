import { decodeSse, type ServerSentEvent } from '../sse/decode-sse.js';
import { decodeUtf8 } from '../sse/decode-utf8.js';
import type { JsonValue, ResponseSummary } from '../trace/trace.js';
import { asObject, asString, parseJson } from './json-access.js';
import type { ParsedResponse, ResponseEnding, ResponseInput } from './provider-adapter.js';

/** What differs between wires when reading a response; the rest is the same everywhere. */
export interface ResponseReader {
  /** A whole event stream, reassembled. */
  readonly stream: (events: readonly ServerSentEvent[], ending: ResponseEnding) => ParsedResponse;
  /** A whole JSON answer (status below 400). May judge it an error itself (a failed Responses object). */
  readonly whole: (value: JsonValue) => ParsedResponse;
  /** The wire's error envelope as a message; the HTTP status is put in front. */
  readonly errorMessage?: (body: JsonValue | undefined) => string | undefined;
}

/**
 * Reads a response the same way for every wire: an event stream is reassembled (an error status
 * over a clean stream is still an upstream error); a body cut by a disconnect or a failed
 * connection is aborted or truncated; an error status is an upstream error with the provider's
 * message; a body that is not JSON is an upstream error too.
 */
export function parseResponseBody(input: ResponseInput, reader: ResponseReader): ParsedResponse {
  if (input.contentType?.includes('text/event-stream')) {
    const parsed = reader.stream(decodeSse(input.body), input.ending);
    if (input.httpStatus >= 400 && parsed.status === 'complete')
      return { ...parsed, status: 'upstream-error', error: `HTTP ${input.httpStatus}` };
    return parsed;
  }
  const text = decodeUtf8(input.body);
  const parsed = parseJson(text);
  if (input.ending === 'client-aborted')
    return {
      response: undefined,
      status: 'aborted',
      error: 'the agent disconnected before the response ended',
    };
  if (input.ending === 'upstream-failed')
    return {
      response: undefined,
      status: 'truncated',
      error: 'the upstream connection failed before the response ended',
    };
  if (input.httpStatus >= 400)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `HTTP ${input.httpStatus}: ${(reader.errorMessage ?? openAiErrorMessage)(parsed.ok ? parsed.value : undefined) ?? text.slice(0, 500)}`,
    };
  if (!parsed.ok)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `the upstream answered with invalid JSON: ${parsed.error}`,
    };
  return reader.whole(parsed.value);
}

/** A complete answer read from a whole body. */
export function complete(response: ResponseSummary): ParsedResponse {
  return { response, status: 'complete', error: undefined };
}

/** OpenAI's `{"error": {"message": …}}` envelope. */
function openAiErrorMessage(body: JsonValue | undefined): string | undefined {
  return asString(asObject(asObject(body)?.['error'])?.['message']);
}
