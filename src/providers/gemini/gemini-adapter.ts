import { withRouteModel, type WireRoute } from '../wire-route.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { convertGeminiBody, geminiContentType } from './convert-gemini-body.js';
import { geminiRoute } from './gemini-route.js';
import { geminiToolLoop } from './gemini-tool-loop.js';
import { googleErrorBody } from './google-error-body.js';
import { parseGeminiRequest } from './parse-gemini-request.js';
import { parseGeminiResponse } from './parse-gemini-response.js';
import type { GeminiForm } from './read-gemini-body.js';

/** Gemini API and Vertex AI `models/{model}:generateContent` and `:streamGenerateContent`. */
export const geminiAdapter: ProviderAdapter = {
  id: 'gemini',
  route: geminiRoute,
  parseRequest: (body, route) =>
    withRouteModel({ ...parseGeminiRequest(body), stream: route?.stream !== undefined }, route),
  parseResponse: parseGeminiResponse,
  errorBody: googleErrorBody,
  requestedForm: (_body, route) => ({ stream: route?.stream !== undefined, includeUsage: false }),
  convertBody(body, to, route) {
    const form = formOf(to.stream, route);
    const converted = convertGeminiBody(body, form);
    return converted === undefined
      ? undefined
      : { contentType: geminiContentType[form], body: converted };
  },
  toolLoop: geminiToolLoop,
  // Gemini's calls mostly come without an id; clients then invent one per call (the AI SDK a random one) and send it back.
  clientMadePaths: ['contents[].parts[].functionCall.id', 'contents[].parts[].functionResponse.id'],
};

/** The form an answer takes: a stream in the form the path asks for (events without a route), else one object. */
function formOf(stream: boolean, route: WireRoute | undefined): GeminiForm {
  if (!stream) return 'json';
  return route?.stream === 'json-array' ? 'array' : 'sse';
}
