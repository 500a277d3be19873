import type { ProviderAdapter } from '../provider-adapter.js';
import { convertGeminiBody, geminiContentType } from './convert-gemini-body.js';
import { geminiToolLoop } from './gemini-tool-loop.js';
import { googleErrorBody } from './google-error-body.js';
import { parseGeminiRequest } from './parse-gemini-request.js';
import { parseGeminiResponse } from './parse-gemini-response.js';

/** Gemini API and Vertex AI `models/{model}:generateContent` and `:streamGenerateContent`. */
export const geminiAdapter: ProviderAdapter = {
  id: 'gemini',
  // Until the proxy routes each wire to its own upstream (issue 32): not yet among `adapters`, so never forwarded.
  upstream: 'openai',
  matches: (method, path) =>
    method === 'POST' &&
    /\/models\/[^/:]+:(generateContent|streamGenerateContent)(\?|$)/.test(path),
  parseRequest: parseGeminiRequest,
  parseResponse: parseGeminiResponse,
  errorBody: googleErrorBody,
  requestedForm: () => ({ stream: false, includeUsage: false }),
  convertBody(body, to) {
    const form = to.stream ? 'sse' : 'json';
    const converted = convertGeminiBody(body, form);
    return converted === undefined
      ? undefined
      : { contentType: geminiContentType[form], body: converted };
  },
  toolLoop: geminiToolLoop,
};
