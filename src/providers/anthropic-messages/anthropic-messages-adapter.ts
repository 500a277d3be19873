import type { JsonValue } from '../../trace/trace.js';
import { asObject, asString } from '../json-access.js';
import { complete, parseResponseBody } from '../parse-response-body.js';
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
  authentication_error: 'authentication_error',
  calltape_error: 'api_error',
  calltape_strict_tools: 'permission_error',
  calltape_mock_loop: 'api_error',
};

/** Anthropic Messages (`POST /v1/messages`), streamed or not. */
export const anthropicMessagesAdapter: ProviderAdapter = {
  id: 'anthropic-messages',
  route: (method, path) =>
    method === 'POST' && path.endsWith('/v1/messages')
      ? { upstream: 'anthropic', path }
      : undefined,
  parseRequest: parseAnthropicRequest,
  parseResponse,
  errorBody: (error) => ({
    type: 'error',
    error: { type: errorTypes[error.type] ?? 'api_error', message: error.message },
  }),
  requestedForm: (body) => ({ stream: asObject(body)?.['stream'] === true, includeUsage: false }),
  convertBody(body, to) {
    const converted = to.stream ? toAnthropicStream(body) : toAnthropicMessage(body);
    return converted === undefined
      ? undefined
      : {
          contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json',
          body: converted,
        };
  },
  toolLoop: anthropicToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  return parseResponseBody(input, {
    stream: assembleAnthropicStream,
    whole: (value) => complete(parseAnthropicMessageResponse(value)),
    errorMessage,
  });
}

/** Anthropic's `{"type":"error","error":{"type","message"}}` envelope. */
function errorMessage(body: JsonValue | undefined): string | undefined {
  const error = asObject(asObject(body)?.['error']);
  const message = asString(error?.['message']);
  return message === undefined ? undefined : `${asString(error?.['type']) ?? 'error'}: ${message}`;
}
