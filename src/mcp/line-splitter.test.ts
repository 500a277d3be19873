import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function splitAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

describe('LineSplitter', () => {
  it('gives the same lines, byte for byte, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).map((text) => text.replace(/\n/g, '')),
          { maxLength: 8 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        (lines, cuts, trailing) => {
          const text = lines.join('\r\n') + (trailing ? '\n' : '');
          const bytes = Buffer.from(text);
          const splitter = new LineSplitter();
          const out = splitAt(bytes, cuts).flatMap((piece) => splitter.push(piece));
          const rest = splitter.end();
          expect(out.every((line) => line.complete)).toBe(true);
          expect(
            Buffer.concat([...out.map((line) => line.bytes), ...(rest ? [rest] : [])]).equals(
              bytes,
            ),
          ).toBe(true);
          expect(out.every((line) => line.bytes.at(-1) === 10)).toBe(true);
        },
      ),
    );
  });

  it('passes an oversized line on in pieces, unparsed, and holds no more than the limit', () => {
    const splitter = new LineSplitter(8);
    const first = splitter.push(Buffer.from('0123'));
    const second = splitter.push(Buffer.from('456789ab'));
    const third = splitter.push(Buffer.from('cd\n{"ok":1}\n'));
    expect(first).toEqual([]);
    expect(second.map((line) => [line.bytes.toString(), line.complete])).toEqual([
      ['0123456789ab', false],
    ]);
    expect(third.map((line) => [line.bytes.toString(), line.complete])).toEqual([
      ['cd\n', false],
      ['{"ok":1}\n', true],
    ]);
  });
});
