import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from './canonical-request.js';
import { describeMismatch, jsonPathText } from './describe-mismatch.js';

const request = (body: object): CanonicalRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: {},
  body: body as CanonicalRequest['body'],
});

describe('describeMismatch', () => {
  it('names a changed leading system message as the system prompt', () => {
    const recorded = request({
      model: 'm',
      messages: [
        { role: 'system', content: 'You report the weather.' },
        { role: 'user', content: 'Paris?' },
      ],
    });
    const requested = request({
      model: 'm',
      messages: [
        { role: 'system', content: 'You report the weather briefly.' },
        { role: 'user', content: 'Paris?' },
      ],
    });
    expect(describeMismatch(recorded, requested)).toMatchObject({
      field: 'messages[0].content',
      meaning: 'the system prompt',
    });
  });

  it("names Anthropic's system field and the model, and nothing for a user message", () => {
    expect(
      describeMismatch(request({ system: 'a', model: 'm' }), request({ system: 'b', model: 'm' }))
        ?.meaning,
    ).toBe('the system prompt');
    expect(describeMismatch(request({ model: 'a' }), request({ model: 'b' }))?.meaning).toBe(
      'the model',
    );
    expect(
      describeMismatch(
        request({ messages: [{ role: 'user', content: 'a' }] }),
        request({ messages: [{ role: 'user', content: 'b' }] }),
      )?.meaning,
    ).toBeNull();
  });
});

describe('jsonPathText', () => {
  it('writes paths as people do, quoting keys that would read as path syntax', () => {
    expect(jsonPathText(['items', 0, 'qty'])).toBe('items[0].qty');
    expect(jsonPathText(['a', 'b.c', ''])).toBe('a["b.c"][""]');
  });
});
