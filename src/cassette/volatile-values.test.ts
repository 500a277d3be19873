import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVolatileHeader, VolatilePlaceholders } from './volatile-values.js';

describe('VolatilePlaceholders', () => {
  it('numbers ids by first appearance, so an echoed call id reads like the one it answers', () => {
    const placeholders = new VolatilePlaceholders();
    const response = placeholders.replaceIn({
      id: 'chatcmpl-9x',
      created: 1764460800,
      system_fingerprint: 'fp_1',
      choices: [{ message: { tool_calls: [{ id: 'call_abc', function: { arguments: '{}' } }] } }],
    });
    expect(response).toEqual({
      id: '<id 1>',
      created: '<time>',
      system_fingerprint: '<id 2>',
      choices: [{ message: { tool_calls: [{ id: '<id 3>', function: { arguments: '{}' } }] } }],
    });
    expect(placeholders.replaceIn({ role: 'tool', tool_call_id: 'call_abc' })).toEqual({
      role: 'tool',
      tool_call_id: '<id 3>',
    });
    expect(placeholders.id('call_new')).toBe('<id 4>');
  });

  it('leaves content alone: tool input objects, JSON Schemas, metadata, non-id keys', () => {
    const body = {
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: 'order-7' } }],
      tools: [{ input_schema: { properties: { id: { type: 'string' } } } }],
      metadata: { id: 'user-3' },
      message: 'id',
    };
    expect(new VolatilePlaceholders().replaceIn(body)).toEqual({
      ...body,
      content: [{ type: 'tool_use', id: '<id 1>', name: 'lookup', input: { id: 'order-7' } }],
    });
    // A Responses request's `input` is a list of items whose call ids are volatile.
    expect(
      new VolatilePlaceholders().replaceIn({
        input: [{ type: 'function_call_output', call_id: 'c' }],
      }),
    ).toEqual({ input: [{ type: 'function_call_output', call_id: '<id 1>' }] });
  });

  it('keeps a key named __proto__ as a key (regression: assignment would set the prototype)', () => {
    const value = JSON.parse('{"__proto__":{"id":"x"},"a":1}') as unknown;
    const replaced = new VolatilePlaceholders().replaceIn(value) as Record<string, unknown>;
    expect(Object.hasOwn(replaced, '__proto__')).toBe(true);
    expect(JSON.stringify(replaced)).toBe('{"__proto__":{"id":"<id 1>"},"a":1}');
  });

  it('two recordings that differ only in ids and times read the same (property)', () => {
    const token = fc.string({ minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        fc.tuple(token, token, fc.nat()),
        fc.tuple(token, token, fc.nat()),
        fc.string(),
        ([id1, call1, time1], [id2, call2, time2], text) => {
          fc.pre(id1 !== call1 && id2 !== call2);
          const recording = (id: string, call: string, time: number): unknown => ({
            id,
            created: time,
            choices: [{ message: { content: text, tool_calls: [{ id: call }] } }],
          });
          expect(new VolatilePlaceholders().replaceIn(recording(id1, call1, time1))).toEqual(
            new VolatilePlaceholders().replaceIn(recording(id2, call2, time2)),
          );
        },
      ),
    );
  });
});

describe('isVolatileHeader', () => {
  it('names request ids, processing times and rate-limit counters, not content headers', () => {
    for (const name of ['x-request-id', 'openai-processing-ms', 'x-ratelimit-remaining-tokens'])
      expect(isVolatileHeader(name)).toBe(true);
    for (const name of ['content-type', 'openai-version', 'x-stainless-lang'])
      expect(isVolatileHeader(name)).toBe(false);
  });
});
