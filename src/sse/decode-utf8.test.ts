import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../test/support/split-bytes.js';
import { decodeUtf8 } from './decode-utf8.js';

/** What the SSE decoder did before: a streaming decoder fed chunk by chunk, then flushed. */
function streamingDecode(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Bytes that are often not UTF-8: cut characters, stray continuation bytes, byte order marks. */
const awkwardBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }).map((text) => new TextEncoder().encode(text)),
      fc.constant(new Uint8Array([0xef, 0xbb, 0xbf])),
      fc.constant(new Uint8Array([0xf0, 0x9f])),
    ),
    { maxLength: 8 },
  )
  .map((parts) => Uint8Array.from(parts.flatMap((part) => [...part])));

describe('decodeUtf8', () => {
  it('yields what a streaming decoder yields, however the bytes are split and whatever they are', () => {
    fc.assert(
      fc.property(awkwardBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const chunks = splitBytes(bytes, cuts);
        expect(decodeUtf8(chunks)).toBe(streamingDecode(chunks));
        expect(decodeUtf8([bytes])).toBe(streamingDecode(chunks));
      }),
      { numRuns: 500 },
    );
  });

  it('reads no chunks as empty text, and any iterable of chunks', () => {
    expect(decodeUtf8([])).toBe('');
    const bytes = new TextEncoder().encode('a ☃ b');
    expect(decodeUtf8(new Set([bytes.subarray(0, 3), bytes.subarray(3)]))).toBe('a ☃ b');
  });

  it('keeps no state between calls (a cut character does not leak into the next text)', () => {
    expect(decodeUtf8([new Uint8Array([0x61, 0xe2, 0x98])])).toBe('a\ufffd');
    expect(decodeUtf8([new Uint8Array([0x83, 0x62])])).toBe('\ufffdb');
  });
});
