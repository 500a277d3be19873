import { describe, expect, it } from 'vitest';
import { keyOf } from '../../cassette/match-key.js';
import { defaultConfig } from '../../config/config.js';
import type { JsonValue } from '../../trace/trace.js';

const conversation = (id: string): JsonValue => ({
  contents: [
    { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
    {
      role: 'model',
      parts: [
        {
          functionCall: { id, name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'c2ln',
        },
      ],
    },
    {
      role: 'user',
      parts: [{ functionResponse: { id, name: 'get_weather', response: { output: 'Sunny' } } }],
    },
  ],
});
const key = (path: string, body: JsonValue) =>
  keyOf('POST', path, {}, body, defaultConfig.match).key;

// Regression (found with @ai-sdk/google): Gemini's calls come without an id, the AI SDK gives each
// a random one and sends it back, so a recorded conversation never replayed (the key differed at
// contents[1].parts[0].functionCall.id).
describe('match key of a Gemini request whose client made up its call ids', () => {
  it('is the same whatever ids the client made up', () => {
    const path = '/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse';
    expect(key(path, conversation('k3Xh2Qz9'))).toBe(key(path, conversation('Pq81mNsa')));
    expect(key(path, conversation('k3Xh2Qz9'))).not.toBe(
      key(path, { ...(conversation('k3Xh2Qz9') as object), systemInstruction: 'Be brief.' }),
    );
  });

  it('leaves the keys of other wires as they were', () => {
    expect(key('/v1/chat/completions', conversation('a'))).not.toBe(
      key('/v1/chat/completions', conversation('b')),
    );
  });
});
