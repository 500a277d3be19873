import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../../../test/support/openai-chat-chunks.js';
import { seededRandom } from '../../../test/support/random.js';
import { openAiChatAdapter } from './openai-chat-adapter.js';

const encoder = new TextEncoder();
const turnArbitrary: fc.Arbitrary<ScriptedTurn> = fc.record({
  text: fc.string({ unit: 'grapheme', maxLength: 40 }),
  toolCalls: fc.array(
    fc.record({
      id: fc.constantFrom('call_a', 'call_b', 'call_c'),
      name: fc.constantFrom('get_weather', 'send_email'),
      arguments: fc.json(),
    }),
    { maxLength: 3 },
  ),
  usage: fc.record({ prompt_tokens: fc.nat(1000), completion_tokens: fc.nat(1000) }),
});

function parse(body: string, stream: boolean) {
  return openAiChatAdapter.parseResponse({
    httpStatus: 200,
    contentType: stream ? 'text/event-stream' : 'application/json',
    body: [encoder.encode(body)],
    ending: 'finished',
  });
}

describe('converting recorded Chat Completions bodies between forms', () => {
  it('a JSON answer re-emitted as a stream reads back as the same answer', () => {
    fc.assert(
      fc.property(turnArbitrary, (turn) => {
        const json = JSON.stringify(chatCompletion(turn));
        const converted = openAiChatAdapter.convertBody(json, { stream: true, includeUsage: true });
        expect(converted?.contentType).toContain('text/event-stream');
        const fromStream = parse(converted?.body ?? '', true);
        expect(fromStream.status).toBe('complete');
        expect(fromStream.response).toEqual(parse(json, false).response);
      }),
    );
  });

  it('a finished stream becomes the JSON answer with the same content, calls and usage', () => {
    fc.assert(
      fc.property(turnArbitrary, fc.integer(), (turn, seed) => {
        const sse = encodeSse(
          chatCompletionChunks(turn, seededRandom(seed), { includeUsage: true }),
        );
        const converted = openAiChatAdapter.convertBody(sse, {
          stream: false,
          includeUsage: false,
        });
        expect(converted?.contentType).toBe('application/json');
        const fromJson = parse(converted?.body ?? '', false);
        expect(fromJson.response).toEqual(parse(sse, true).response);
      }),
    );
  });

  it('refuses to turn a cut stream into a complete answer', () => {
    const sse = encodeSse(
      chatCompletionChunks({ text: 'partial', finishReason: null }, seededRandom(1)),
    );
    expect(
      openAiChatAdapter.convertBody(sse, { stream: false, includeUsage: false }),
    ).toBeUndefined();
  });
});
