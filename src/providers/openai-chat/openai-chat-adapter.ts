import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asObject, asString, parseJson } from '../json-access.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleOpenAiChatStream } from './assemble-openai-chat-stream.js';
import { toCompletionBody, toStreamBody } from './convert-openai-chat-body.js';
import { openAiChatToolLoop } from './openai-chat-tool-loop.js';
import { parseOpenAiChatCompletion } from './parse-openai-chat-completion.js';
import { parseOpenAiChatRequest } from './parse-openai-chat-request.js';

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streamed or not. */
export const openAiChatAdapter: ProviderAdapter = {
  id: 'openai-chat',
  upstream: 'openai',
  matches: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),
  parseRequest: parseOpenAiChatRequest,
  parseResponse,
  errorBody: (error) => ({ error: { message: error.message, type: error.type, param: null, code: error.code.toLowerCase() } }),
  requestedForm(body) {
    const request = asObject(body);
    return { stream: request?.['stream'] === true, includeUsage: asObject(request?.['stream_options'])?.['include_usage'] === true };
  },
  convertBody(body, to) {
    const converted = to.stream ? toStreamBody(body, to.includeUsage) : toCompletionBody(body);
    return converted === undefined ? undefined : { contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json', body: converted };
  },
  toolLoop: openAiChatToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  if (input.contentType?.includes('text/event-stream')) {
    const parsed = assembleOpenAiChatStream(decodeSse(input.body), input.ending);
    if (input.httpStatus >= 400 && parsed.status === 'complete') return { ...parsed, status: 'upstream-error', error: `HTTP ${input.httpStatus}` };
    return parsed;
  }
  const text = decodeText(input.body);
  const parsed = parseJson(text);
  if (input.ending === 'client-aborted') return { response: undefined, status: 'aborted', error: 'the agent disconnected before the response ended' };
  if (input.ending === 'upstream-failed') return { response: undefined, status: 'truncated', error: 'the upstream connection failed before the response ended' };
  if (input.httpStatus >= 400) return { response: undefined, status: 'upstream-error', error: upstreamErrorMessage(input.httpStatus, parsed.ok ? parsed.value : undefined, text) };
  if (!parsed.ok) return { response: undefined, status: 'upstream-error', error: `the upstream answered with invalid JSON: ${parsed.error}` };
  return { response: parseOpenAiChatCompletion(parsed.value), status: 'complete', error: undefined };
}

function decodeText(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

function upstreamErrorMessage(status: number, body: JsonValue | undefined, text: string): string {
  const message = asString(asObject(asObject(body)?.['error'])?.['message']);
  return `HTTP ${status}: ${message ?? text.slice(0, 500)}`;
}
