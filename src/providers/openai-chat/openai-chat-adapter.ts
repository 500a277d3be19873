import { asObject } from '../json-access.js';
import { openAiRoute } from '../openai-route.js';
import { withRouteModel } from '../wire-route.js';
import { complete, parseResponseBody } from '../parse-response-body.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleOpenAiChatStream } from './assemble-openai-chat-stream.js';
import { toCompletionBody, toStreamBody } from './convert-openai-chat-body.js';
import { openAiChatToolLoop } from './openai-chat-tool-loop.js';
import { parseOpenAiChatCompletion } from './parse-openai-chat-completion.js';
import { parseOpenAiChatRequest } from './parse-openai-chat-request.js';

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streamed or not. */
export const openAiChatAdapter: ProviderAdapter = {
  id: 'openai-chat',
  route: (method, path) => openAiRoute(method, path, 'chat/completions'),
  parseRequest: (body, route) => withRouteModel(parseOpenAiChatRequest(body), route),
  parseResponse,
  errorBody: (error) => ({
    error: {
      message: error.message,
      type: error.type,
      param: null,
      code: error.code.toLowerCase(),
    },
  }),
  requestedForm(body) {
    const request = asObject(body);
    return {
      stream: request?.['stream'] === true,
      includeUsage: asObject(request?.['stream_options'])?.['include_usage'] === true,
    };
  },
  convertBody(body, to) {
    const converted = to.stream ? toStreamBody(body, to.includeUsage) : toCompletionBody(body);
    return converted === undefined
      ? undefined
      : {
          contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json',
          body: converted,
        };
  },
  toolLoop: openAiChatToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  return parseResponseBody(input, {
    stream: assembleOpenAiChatStream,
    whole: (value) => complete(parseOpenAiChatCompletion(value)),
  });
}
