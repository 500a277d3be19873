import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { decodeNdjson } from './decode-ndjson.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('decodeNdjson', () => {
  it('reads one value a line, skipping blank lines and CRLF endings', () => {
    expect(decodeNdjson([bytes('{"a":1}\r\n\n{"b":"☃"}\n')])).toEqual({
      values: [{ a: 1 }, { b: '☃' }],
      invalid: undefined,
      unterminated: false,
    });
  });

  it('reads the same however the bytes are split, inside lines and characters too (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (values, cuts) => {
          const text = values.map((value) => `${JSON.stringify(value)}\n`).join('');
          const whole = decodeNdjson([bytes(text)]);
          expect(decodeNdjson(splitBytes(bytes(text), cuts))).toEqual(whole);
          expect(whole.values).toEqual(values.map((value) => JSON.parse(JSON.stringify(value))));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('says a body cut inside its last line is unterminated, not invalid', () => {
    const cut = decodeNdjson([bytes('{"a":1}\n{"message":{"cont')]);
    expect(cut).toEqual({ values: [{ a: 1 }], invalid: undefined, unterminated: true });
  });

  it('names the first line that is not JSON', () => {
    const read = decodeNdjson([bytes('{"a":1}\nnot json\n{"b":2}\n')]);
    expect(read.invalid).toBe('not json');
    expect(read.values).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
