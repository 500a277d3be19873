import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asObject, asString, parseJson } from '../json-access.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleResponsesStream } from './assemble-responses-stream.js';
import { toResponsesObject, toResponsesStream } from './convert-responses-body.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { parseResponsesResponse } from './parse-responses-response.js';
import { responsesToolLoop } from './responses-tool-loop.js';

/** OpenAI Responses (`POST /v1/responses`), streamed or not. */
export const openAiResponsesAdapter: ProviderAdapter = {
  id: 'openai-responses',
  upstream: 'openai',
  matches: (method, path) => method === 'POST' && /\/responses(\?|$)/.test(path),
  parseRequest: parseResponsesRequest,
  parseResponse,
  errorBody: (error) => ({ error: { message: error.message, type: error.type, param: null, code: error.code.toLowerCase() } }),
  requestedForm: (body) => ({ stream: asObject(body)?.['stream'] === true, includeUsage: false }),
  convertBody(body, to) {
    const converted = to.stream ? toResponsesStream(body) : toResponsesObject(body);
    return converted === undefined ? undefined : { contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json', body: converted };
  },
  toolLoop: responsesToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  if (input.contentType?.includes('text/event-stream')) {
    const parsed = assembleResponsesStream(decodeSse(input.body), input.ending);
    if (input.httpStatus >= 400 && parsed.status === 'complete') return { ...parsed, status: 'upstream-error', error: `HTTP ${input.httpStatus}` };
    return parsed;
  }
  const text = new TextDecoder().decode(Buffer.concat(input.body.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))));
  const parsed = parseJson(text);
  if (input.ending === 'client-aborted') return { response: undefined, status: 'aborted', error: 'the agent disconnected before the response ended' };
  if (input.ending === 'upstream-failed') return { response: undefined, status: 'truncated', error: 'the upstream connection failed before the response ended' };
  if (input.httpStatus >= 400) return { response: undefined, status: 'upstream-error', error: errorMessage(input.httpStatus, parsed.ok ? parsed.value : undefined, text) };
  if (!parsed.ok) return { response: undefined, status: 'upstream-error', error: `the upstream answered with invalid JSON: ${parsed.error}` };
  const response = parseResponsesResponse(parsed.value);
  const failed = asObject(parsed.value)?.['status'] === 'failed';
  return failed ? { response, status: 'upstream-error', error: `the response failed: ${asString(asObject(asObject(parsed.value)?.['error'])?.['message']) ?? 'no reason given'}` } : { response, status: 'complete', error: undefined };
}

function errorMessage(status: number, body: JsonValue | undefined, text: string): string {
  const message = asString(asObject(asObject(body)?.['error'])?.['message']);
  return `HTTP ${status}: ${message ?? text.slice(0, 500)}`;
}
