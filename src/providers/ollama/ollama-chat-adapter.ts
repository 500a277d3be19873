import type { JsonValue } from '../../trace/trace.js';
import { asObject, asString } from '../json-access.js';
import { complete, parseResponseBody } from '../parse-response-body.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleOllamaChat, parseOllamaChatResponse } from './assemble-ollama-chat.js';
import { toOllamaStream, toOllamaWhole } from './convert-ollama-body.js';
import { decodeNdjson } from './decode-ndjson.js';
import { ollamaToolLoop } from './ollama-tool-loop.js';
import { parseOllamaRequest } from './parse-ollama-request.js';

const ndjson = 'application/x-ndjson';

/** Ollama's native chat (`POST /api/chat`), streamed as NDJSON (the default) or whole. */
export const ollamaChatAdapter: ProviderAdapter = {
  id: 'ollama-chat',
  // Placeholder until wires route by path to their own upstreams; the adapter is not registered before then.
  upstream: 'openai',
  matches: (method, path) => method === 'POST' && /^\/api\/chat\/?(\?|$)/.test(path),
  parseRequest: parseOllamaRequest,
  parseResponse,
  // Ollama's envelope is `{"error": "…"}`; the `ollama` client throws a ResponseError with that message.
  errorBody: (error) => ({ error: error.message }),
  requestedForm: (body) => ({ stream: asObject(body)?.['stream'] !== false, includeUsage: false }),
  convertBody(body, to) {
    const converted = to.stream ? toOllamaStream(body) : toOllamaWhole(body);
    return converted === undefined
      ? undefined
      : { contentType: to.stream ? ndjson : 'application/json; charset=utf-8', body: converted };
  },
  toolLoop: ollamaToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  if (input.contentType?.includes(ndjson)) {
    const parsed = assembleOllamaChat(decodeNdjson(input.body), input.ending);
    if (input.httpStatus >= 400 && parsed.status === 'complete')
      return { ...parsed, status: 'upstream-error', error: `HTTP ${input.httpStatus}` };
    return parsed;
  }
  return parseResponseBody(input, {
    // Ollama never answers with an event stream; read one's data lines as the objects they carry.
    stream: (events, ending) =>
      assembleOllamaChat(
        decodeNdjson(events.map((event) => new TextEncoder().encode(`${event.data}\n`))),
        ending,
      ),
    whole: (value) => {
      const message = errorMessage(value);
      return message === undefined
        ? complete(parseOllamaChatResponse(value))
        : { response: undefined, status: 'upstream-error', error: message };
    },
    errorMessage,
  });
}

/** Ollama's `{"error": "…"}` envelope. */
function errorMessage(body: JsonValue | undefined): string | undefined {
  return asString(asObject(body)?.['error']);
}
