import { decodeUtf8 } from '../../sse/decode-utf8.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, type JsonObject } from '../json-access.js';
import type { ParsedResponse, ResponseInput } from '../provider-adapter.js';
import { mergeGeminiChunks } from './merge-gemini-chunks.js';
import { readGeminiBody } from './read-gemini-body.js';
import { summariseGeminiResponse } from './summarise-gemini-response.js';

/**
 * Reads a Gemini answer in any of its forms. A stream is finished when a candidate carries its
 * `finishReason` (and, for the array form, the array closed); without that it was cut. An error
 * status, or an `error` chunk inside a stream, is an upstream error with Google's message.
 */
export function parseGeminiResponse(input: ResponseInput): ParsedResponse {
  const body = readGeminiBody(input.body, input.contentType);
  const merged = mergeGeminiChunks(body.chunks);
  if (input.httpStatus >= 400 || merged.error !== undefined)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `HTTP ${input.httpStatus}: ${googleErrorMessage(merged.error) ?? decodeUtf8(input.body).slice(0, 500)}`,
    };
  const stream = body.form !== 'json';
  if (!stream && body.chunks.length === 0 && input.ending === 'finished')
    return {
      response: undefined,
      status: 'upstream-error',
      error: `the upstream answered with invalid JSON: ${body.invalid ?? 'no body'}`,
    };
  const finished =
    input.ending === 'finished' &&
    body.closed &&
    (!stream ||
      asArray(merged.response['candidates']).some(
        (candidate) => asObject(candidate)?.['finishReason'] !== undefined,
      ) ||
      asObject(merged.response['promptFeedback'])?.['blockReason'] !== undefined);
  const response = body.chunks.length > 0 ? summariseGeminiResponse(merged, finished) : undefined;
  if (finished) return { response, status: 'complete', error: undefined };
  if (input.ending === 'client-aborted')
    return {
      response,
      status: 'aborted',
      error: 'the agent disconnected before the response ended',
    };
  return {
    response,
    status: 'truncated',
    error:
      input.ending === 'upstream-failed'
        ? 'the upstream connection failed before the response ended'
        : body.invalid !== undefined
          ? `the stream broke off: ${body.invalid}`
          : 'the stream ended before a finishReason',
  };
}

/** Google's `{"error":{"code","message","status"}}` envelope as `STATUS: message`. */
export function googleErrorMessage(error: JsonObject | undefined): string | undefined {
  const message = asString(error?.['message']);
  if (message === undefined) return undefined;
  return `${asString(error?.['status']) ?? 'error'}: ${message}`;
}

/** The error object of a body that is Google's envelope, bare or as a stream's one chunk. */
export function googleError(value: JsonValue | undefined): JsonObject | undefined {
  const object = asObject(Array.isArray(value) ? value[0] : value);
  return asObject(object?.['error']);
}
