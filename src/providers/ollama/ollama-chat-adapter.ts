import type { JsonValue, RequestSummary } from '../../trace/trace.js';
import { asObject, asString } from '../json-access.js';
import { complete, parseResponseBody } from '../parse-response-body.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleOllamaChat, parseOllamaChatResponse } from './assemble-ollama-chat.js';
import { toOllamaStream, toOllamaWhole } from './convert-ollama-body.js';
import { decodeNdjson } from './decode-ndjson.js';
import { ollamaRoute } from './ollama-route.js';
import { ollamaToolLoop } from './ollama-tool-loop.js';
import { parseOllamaRequest } from './parse-ollama-request.js';

const ndjson = 'application/x-ndjson';

/**
 * Ollama's native chat (`POST /api/chat`), streamed as NDJSON (the default) or whole, and the
 * model list and model card reads (`GET /api/tags`, `POST /api/show`) recorded beside it.
 */
export const ollamaChatAdapter: ProviderAdapter = {
  id: 'ollama-chat',
  route: (method, path) => ollamaRoute(method, path),
  routeNames: ['/api/chat'],
  parseRequest: (body, route) => (route?.read ? readSummary(body) : parseOllamaRequest(body)),
  parseResponse,
  // Ollama's envelope is `{"error": "…"}`; the `ollama` client throws a ResponseError with that message.
  errorBody: (error) => ({ error: error.message }),
  requestedForm: (body, route) => ({
    stream: route?.read !== true && asObject(body)?.['stream'] !== false,
    includeUsage: false,
  }),
  convertBody(body, to, route) {
    if (route?.read) return undefined;
    const converted = to.stream ? toOllamaStream(body) : toOllamaWhole(body);
    return converted === undefined
      ? undefined
      : { contentType: to.stream ? ndjson : 'application/json; charset=utf-8', body: converted };
  },
  toolLoop: ollamaToolLoop,
};

/** A read names at most a model (`/api/show`); it has no conversation. */
function readSummary(body: JsonValue): RequestSummary {
  return {
    model: asString(asObject(body)?.['model']),
    stream: false,
    messages: [],
    tools: [],
    toolChoice: undefined,
  };
}

function parseResponse(input: ResponseInput): ParsedResponse {
  if (input.route?.read) return parseRead(input);
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

/** A read's answer is kept as bytes for replay; only whether it succeeded matters to the trace. */
function parseRead(input: ResponseInput): ParsedResponse {
  return parseResponseBody(input, {
    stream: () => ({ response: undefined, status: 'complete', error: undefined }),
    whole: () => ({ response: undefined, status: 'complete', error: undefined }),
    errorMessage,
  });
}

/** Ollama's `{"error": "…"}` envelope. */
function errorMessage(body: JsonValue | undefined): string | undefined {
  return asString(asObject(body)?.['error']);
}
