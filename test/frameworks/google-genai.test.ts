import { GoogleGenAI, Type, type Content, type Part } from '@google/genai';
import { OAuth2Client } from 'google-auth-library';
import { describeFrameworks, type Conversing } from './framework-contract.js';

const tools = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Current weather in a city',
        parameters: {
          type: Type.OBJECT,
          properties: { city: { type: Type.STRING } },
          required: ['city'],
        },
      },
    ],
  },
];

/**
 * The agent loop of Google's function-calling guide on `@google/genai`: the model's content goes
 * back into the history as it came (thought signatures included), then one user content with a
 * `functionResponse` per call. The client finds calltape through GOOGLE_GEMINI_BASE_URL /
 * GOOGLE_VERTEX_BASE_URL, which it reads itself.
 */
function genaiAgent(
  client: () => GoogleGenAI,
  streamed: boolean,
  getWeather: (city: string) => string,
): Conversing {
  return {
    async converse(turns, { system }) {
      const ai = client();
      const model = 'gemini-3-flash-preview';
      const contents: Content[] = [];
      const answers: string[] = [];
      for (const turn of turns) {
        contents.push({ role: 'user', parts: [{ text: turn }] });
        for (let step = 0; step < 5; step++) {
          const config = { tools, ...(system === undefined ? {} : { systemInstruction: system }) };
          const parts: Part[] = [];
          if (streamed)
            for await (const chunk of await ai.models.generateContentStream({
              model,
              contents,
              config,
            }))
              parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
          else
            parts.push(
              ...((await ai.models.generateContent({ model, contents, config })).candidates?.[0]
                ?.content?.parts ?? []),
            );
          contents.push({ role: 'model', parts });
          const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
          if (calls.length === 0) {
            answers.push(parts.map((part) => part.text ?? '').join(''));
            break;
          }
          contents.push({
            role: 'user',
            parts: calls.map((call) => ({
              functionResponse: {
                ...(call.id === undefined ? {} : { id: call.id }),
                name: call.name ?? '',
                response: { output: getWeather(String(call.args?.['city'])) },
              },
            })),
          });
        }
      }
      return answers;
    },
  };
}

/** Vertex AI with a project and location, authenticated offline: an OAuth client holding a token that has not expired. */
function vertexClient(): GoogleGenAI {
  const authClient = new OAuth2Client();
  authClient.setCredentials({
    access_token: 'ya29.calltape-test-token',
    expiry_date: Date.now() + 3_600_000,
  });
  return new GoogleGenAI({
    vertexai: true,
    project: 'calltape-test',
    location: 'us-central1',
    googleAuthOptions: { authClient },
  });
}

describeFrameworks('Google Gen AI SDK (@google/genai)', [
  {
    name: 'Gemini API (generateContent)',
    wire: 'gemini',
    makeAgent: (getWeather) => genaiAgent(() => new GoogleGenAI({}), false, getWeather),
  },
  {
    name: 'Gemini API (generateContentStream, ?alt=sse)',
    wire: 'gemini',
    makeAgent: (getWeather) => genaiAgent(() => new GoogleGenAI({}), true, getWeather),
  },
  {
    name: 'Vertex AI (v1beta1, generateContentStream, OAuth bearer)',
    wire: 'gemini',
    makeAgent: (getWeather) => genaiAgent(vertexClient, true, getWeather),
  },
]);
