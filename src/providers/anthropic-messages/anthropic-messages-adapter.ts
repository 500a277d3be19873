import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asObject, asString, parseJson } from '../json-access.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { anthropicToolLoop } from './anthropic-tool-loop.js';
import { assembleAnthropicStream } from './assemble-anthropic-stream.js';
import { toAnthropicMessage, toAnthropicStream } from './convert-anthropic-body.js';
import { parseAnthropicMessageResponse } from './parse-anthropic-message.js';
import { parseAnthropicRequest } from './parse-anthropic-request.js';

/** calltape's error types in Anthropic's own vocabulary, so the SDK raises the matching error class. */
const errorTypes: Record<string, string> = {
  invalid_request_error: 'invalid_request_error',
  upstream_error: 'api_error',
  cassette_miss: 'not_found_error',
  calltape_error: 'api_error',
  calltape_strict_tools: 'permission_error',
  calltape_mock_loop: 'api_error',
};

/** Anthropic Messages (`POST /v1/messages`), streamed or not. */
export const anthropicMessagesAdapter: ProviderAdapter = {
  id: 'anthropic-messages',
  upstream: 'anthropic',
  matches: (method, path) => method === 'POST' && /\/v1\/messages(\?|$)/.test(path),
  parseRequest: parseAnthropicRequest,
  parseResponse,
  errorBody: (error) => ({ type: 'error', error: { type: errorTypes[error.type] ?? 'api_error', message: error.message } }),
  requestedForm: (body) => ({ stream: asObject(body)?.['stream'] === true, includeUsage: false }),
  convertBody(body, to) {
    const converted = to.stream ? toAnthropicStream(body) : toAnthropicMessage(body);
    return converted === undefined ? undefined : { contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json', body: converted };
  },
  toolLoop: anthropicToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  if (input.contentType?.includes('text/event-stream')) {
    const parsed = assembleAnthropicStream(decodeSse(input.body), input.ending);
    if (input.httpStatus >= 400 && parsed.status === 'complete') return { ...parsed, status: 'upstream-error', error: `HTTP ${input.httpStatus}` };
    return parsed;
  }
  const text = new TextDecoder().decode(concat(input.body));
  const parsed = parseJson(text);
  if (input.ending === 'client-aborted') return { response: undefined, status: 'aborted', error: 'the agent disconnected before the response ended' };
  if (input.ending === 'upstream-failed') return { response: undefined, status: 'truncated', error: 'the upstream connection failed before the response ended' };
  if (input.httpStatus >= 400) return { response: undefined, status: 'upstream-error', error: errorMessage(input.httpStatus, parsed.ok ? parsed.value : undefined, text) };
  if (!parsed.ok) return { response: undefined, status: 'upstream-error', error: `the upstream answered with invalid JSON: ${parsed.error}` };
  return { response: parseAnthropicMessageResponse(parsed.value), status: 'complete', error: undefined };
}

function errorMessage(status: number, body: JsonValue | undefined, text: string): string {
  const error = asObject(asObject(body)?.['error']);
  const message = asString(error?.['message']);
  return `HTTP ${status}: ${message ? `${asString(error?.['type']) ?? 'error'}: ${message}` : text.slice(0, 500)}`;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
