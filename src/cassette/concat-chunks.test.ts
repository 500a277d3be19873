import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatChunks } from './concat-chunks.js';

describe('concatChunks', () => {
  it('gives the bytes of the chunks in order, whether they lie adjacent in one buffer or not (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 8 }),
        (bytes, cuts, gaps) => {
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          // Views of one buffer, each starting where the last ended plus a gap (0: adjacent).
          const chunks: Uint8Array[] = [];
          let start = 0;
          for (const [index, point] of [...points, bytes.length].entries()) {
            const from = Math.min(start + (gaps[index] ?? 0), point);
            chunks.push(bytes.subarray(from, point));
            start = point;
          }
          const expected = Buffer.concat(chunks);
          expect(Buffer.from(concatChunks(chunks))).toEqual(expected);
        },
      ),
    );
  });

  it('shares the buffer of adjacent views instead of copying them, and copies views of different buffers', () => {
    const buffer = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const joined = concatChunks([buffer.subarray(1, 3), buffer.subarray(3, 5)]);
    expect([...joined]).toEqual([2, 3, 4, 5]);
    expect(joined.buffer).toBe(buffer.buffer);
    const copied = concatChunks([buffer.subarray(0, 2), new Uint8Array([9])]);
    expect([...copied]).toEqual([1, 2, 9]);
    expect(copied.buffer).not.toBe(buffer.buffer);
    expect([...concatChunks([])]).toEqual([]);
  });
});
