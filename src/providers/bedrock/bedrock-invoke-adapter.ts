import { anthropicMessagesAdapter } from '../anthropic-messages/anthropic-messages-adapter.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { withRouteModel } from '../wire-route.js';
import { bedrockErrorBody, bedrockErrorHeaders } from './bedrock-error-body.js';
import { bedrockRoute } from './bedrock-route.js';
import { parseInvokeResponse } from './parse-invoke-response.js';

/**
 * Bedrock's InvokeModel for Anthropic models: `POST /model/{modelId}/invoke` and
 * `/invoke-with-response-stream`, whose body is the Messages shape with `anthropic_version` (the
 * model in the path, the stream in the operation). Answers in other models' own shapes are read
 * as no turn. Not re-expressed between forms, and no mock tools yet.
 */
export const bedrockInvokeAdapter: ProviderAdapter = {
  id: 'bedrock-invoke',
  routeNames: ['/model/{modelId}/invoke', '/model/{modelId}/invoke-with-response-stream'],
  route: (method, path) => bedrockRoute('invoke', method, path),
  parseRequest: (body, route) =>
    withRouteModel(
      { ...anthropicMessagesAdapter.parseRequest(body), stream: route?.stream !== undefined },
      route,
    ),
  parseResponse: parseInvokeResponse,
  errorBody: bedrockErrorBody,
  errorHeaders: bedrockErrorHeaders,
  requestedForm: (_body, route) => ({ stream: route?.stream !== undefined, includeUsage: false }),
  binaryBodies: true,
  convertBody: () => undefined,
};
