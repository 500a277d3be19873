import type { ProviderAdapter } from '../provider-adapter.js';
import { withRouteModel } from '../wire-route.js';
import { bedrockErrorBody, bedrockErrorHeaders } from './bedrock-error-body.js';
import { bedrockRoute } from './bedrock-route.js';
import { bedrockToolLoop } from './bedrock-tool-loop.js';
import { convertConverseBody } from './convert-converse-body.js';
import { parseConverseRequest } from './parse-converse-request.js';
import { eventStreamContentType, parseConverseResponse } from './parse-converse-response.js';

/** Amazon Bedrock's Converse API: `POST /model/{modelId}/converse` and `/converse-stream`. */
export const bedrockConverseAdapter: ProviderAdapter = {
  id: 'bedrock-converse',
  routeNames: ['/model/{modelId}/converse', '/model/{modelId}/converse-stream'],
  route: (method, path) => bedrockRoute('converse', method, path),
  parseRequest: (body, route) =>
    withRouteModel({ ...parseConverseRequest(body), stream: route?.stream !== undefined }, route),
  parseResponse: parseConverseResponse,
  errorBody: bedrockErrorBody,
  errorHeaders: bedrockErrorHeaders,
  requestedForm: (_body, route) => ({ stream: route?.stream !== undefined, includeUsage: false }),
  binaryBodies: true,
  toolLoop: bedrockToolLoop,
  convertBody(body, to) {
    const converted = convertConverseBody(body, to.stream);
    return converted === undefined
      ? undefined
      : { contentType: to.stream ? eventStreamContentType : 'application/json', body: converted };
  },
};
