import { openAiRoute } from '../openai-route.js';
import { withRouteModel } from '../wire-route.js';
import { asObject, asString } from '../json-access.js';
import { complete, parseResponseBody } from '../parse-response-body.js';
import type { ParsedResponse, ProviderAdapter, ResponseInput } from '../provider-adapter.js';
import { assembleResponsesStream } from './assemble-responses-stream.js';
import { toResponsesObject, toResponsesStream } from './convert-responses-body.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { parseResponsesResponse } from './parse-responses-response.js';
import { responsesToolLoop } from './responses-tool-loop.js';

/** OpenAI Responses (`POST /v1/responses`), streamed or not. */
export const openAiResponsesAdapter: ProviderAdapter = {
  id: 'openai-responses',
  route: (method, path) => openAiRoute(method, path, 'responses'),
  parseRequest: (body, route) => withRouteModel(parseResponsesRequest(body), route),
  parseResponse,
  errorBody: (error) => ({
    error: {
      message: error.message,
      type: error.type,
      param: null,
      code: error.code.toLowerCase(),
    },
  }),
  requestedForm: (body) => ({ stream: asObject(body)?.['stream'] === true, includeUsage: false }),
  convertBody(body, to) {
    const converted = to.stream ? toResponsesStream(body) : toResponsesObject(body);
    return converted === undefined
      ? undefined
      : {
          contentType: to.stream ? 'text/event-stream; charset=utf-8' : 'application/json',
          body: converted,
        };
  },
  toolLoop: responsesToolLoop,
};

function parseResponse(input: ResponseInput): ParsedResponse {
  return parseResponseBody(input, {
    stream: assembleResponsesStream,
    whole: (value) => {
      const response = parseResponsesResponse(value);
      // A whole answer can still be a failure: `status: "failed"` with its error.
      if (asObject(value)?.['status'] !== 'failed') return complete(response);
      return {
        response,
        status: 'upstream-error',
        error: `the response failed: ${asString(asObject(asObject(value)?.['error'])?.['message']) ?? 'no reason given'}`,
      };
    },
  });
}
