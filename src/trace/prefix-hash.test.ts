import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerKey, prefixKeys } from './prefix-hash.js';
import type { Message } from './trace.js';

const message = fc.record({
  role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
  text: fc.string({ maxLength: 40 }),
  toolCalls: fc.array(
    fc.record({
      id: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      index: fc.constant(0),
      name: fc.string({ maxLength: 6 }),
      argumentsRaw: fc.string({ maxLength: 12 }),
      arguments: fc.constant({ ok: true as const, value: null }),
      complete: fc.constant(true),
    }),
    { maxLength: 2 },
  ),
  toolCallId: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
  isError: fc.constant(undefined),
}) as fc.Arbitrary<Message>;

describe('prefix keys', () => {
  it('give a prefix of a conversation the same keys as the conversation begins with', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 8 }),
        fc.array(message, { maxLength: 4 }),
        (start, rest) => {
          expect(prefixKeys([...start, ...rest]).slice(0, start.length)).toEqual(prefixKeys(start));
        },
      ),
    );
  });

  it('tell different conversations apart, including text split differently between messages', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 6 }),
        fc.array(message, { minLength: 1, maxLength: 6 }),
        (left, right) => {
          const form = (messages: readonly Message[]): string =>
            JSON.stringify(
              messages.map((item) => [
                item.role,
                item.text.trim(),
                item.toolCallId ?? '',
                item.toolCalls.map((call) => call.id ?? `${call.name}(${call.argumentsRaw})`),
              ]),
            );
          fc.pre(form(left) !== form(right));
          expect(prefixKeys(left).at(-1)).not.toBe(prefixKeys(right).at(-1));
        },
      ),
      { numRuns: 2000 },
    );
    const split = (first: string, second: string): Message[] =>
      [first, second].map((text) => ({
        role: 'user',
        text,
        toolCalls: [],
        toolCallId: undefined,
        isError: undefined,
      }));
    expect(prefixKeys(split('ab', 'c')).at(-1)).not.toBe(prefixKeys(split('a', 'bc')).at(-1));
  });

  it('key an answer like the assistant message that later repeats it', () => {
    const [userKey] = prefixKeys([
      { role: 'user', text: 'hi', toolCalls: [], toolCallId: undefined, isError: undefined },
    ]);
    const call = {
      id: 'call_1',
      index: 0,
      name: 'f',
      argumentsRaw: '{}',
      arguments: { ok: true as const, value: {} },
      complete: true,
    };
    const echoed = prefixKeys([
      { role: 'user', text: 'hi', toolCalls: [], toolCallId: undefined, isError: undefined },
      {
        role: 'assistant',
        text: ' ',
        toolCalls: [{ ...call, argumentsRaw: '{ }' }],
        toolCallId: undefined,
        isError: undefined,
      },
    ]);
    expect(answerKey(userKey as bigint, { text: '', toolCalls: [call] })).toBe(echoed[1]);
  });
});
