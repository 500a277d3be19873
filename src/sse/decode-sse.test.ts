import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../test/support/split-bytes.js';
import { decodeSse } from './decode-sse.js';

const encoder = new TextEncoder();

describe('decodeSse', () => {
  it('keeps event names and joins multi-line data', () => {
    const bytes = encoder.encode('event: ping\ndata: {}\n\ndata: a\ndata: b\n\n');
    expect(decodeSse([bytes])).toEqual([
      { event: 'ping', data: '{}' },
      { event: undefined, data: 'a\nb' },
    ]);
  });

  it('drops an event the stream ends inside (truncation is visible to callers)', () => {
    expect(decodeSse([encoder.encode('data: 1\n\ndata: {"partial"')])).toEqual([
      { event: undefined, data: '1' },
    ]);
  });

  it('decodes identically however the bytes are split, multi-byte characters included', () => {
    const text =
      'data: {"city":"Zürich ☃ 東京 🌧"}\r\n\r\nevent: error\ndata: {"x":"\\u00e9"}\n\n: comment\n\ndata: [DONE]\n\n';
    const bytes = encoder.encode(text);
    const whole = decodeSse([bytes]);
    expect(whole).toHaveLength(3);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(decodeSse(splitBytes(bytes, cuts))).toEqual(whole);
      }),
    );
  });
});
