import { describe, expect, it } from 'vitest';
import { responsesEvents, responsesObject } from '../../../test/support/openai-responses-events.js';
import { seededRandom } from '../../../test/support/random.js';
import type { PrefixKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { responsesToolLoop } from './responses-tool-loop.js';

const hiddenRound: JsonValue[] = [
  {
    type: 'function_call',
    call_id: 'call_paris',
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
  },
  { type: 'function_call_output', call_id: 'call_paris', output: '{"forecast":"Rain in Paris"}' },
];
const answer = {
  text: 'Forecast: rain',
  calls: [{ callId: 'call_x', name: 'send_email', arguments: '{}' }],
};

// Regression (found with the AI SDK, @ai-sdk/openai 3 with `store` on): the agent sends its
// earlier answer back as `{ type: 'item_reference', id }` instead of the message, so the splice
// found no assistant turn to key and the next request went upstream without the mocked round.
describe('Responses tool loop: an answer sent back by item_reference', () => {
  it('keys the hidden rounds by each item of the answer, read from the JSON or the stream', () => {
    const fromJson = responsesToolLoop.referenceKeys?.(JSON.stringify(responsesObject(answer)));
    const fromStream = responsesToolLoop.referenceKeys?.(responsesEvents(answer, seededRandom(3)));
    expect(fromJson).toHaveLength(2);
    expect(fromStream).toEqual(fromJson);
  });

  it('puts the hidden rounds back in front of the first referenced item of that answer, once', () => {
    const keys = responsesToolLoop.referenceKeys?.(JSON.stringify(responsesObject(answer))) ?? [];
    const kept = new Map<PrefixKey, readonly JsonValue[]>(keys.map((key) => [key, hiddenRound]));
    const user = (text: string): JsonValue => ({ role: 'user', content: text });
    const body = {
      input: [
        user('Weather in Paris?'),
        { type: 'item_reference', id: 'msg_1' },
        { type: 'item_reference', id: 'fc_0' },
        user('Thanks!'),
      ],
    };
    const spliced = responsesToolLoop.splice(body, (key) => kept.get(key)) as {
      input: JsonValue[];
    };
    expect(spliced.input).toEqual([
      user('Weather in Paris?'),
      ...hiddenRound,
      { type: 'item_reference', id: 'msg_1' },
      { type: 'item_reference', id: 'fc_0' },
      user('Thanks!'),
    ]);
    expect(
      responsesToolLoop.splice(
        { input: [user('Hi'), { type: 'item_reference', id: 'msg_other' }] },
        (key) => kept.get(key),
      ),
    ).toBeUndefined();
  });
});
