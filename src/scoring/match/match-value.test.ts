import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberOf } from './match-value.js';

describe('numberOf', () => {
  it('reads a number, and a string that reads as a finite number, as that number (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(numberOf(value)).toBe(value);
        expect(numberOf(` ${String(value)} `)).toBe(Number(String(value)));
      }),
    );
  });

  it('reads nothing else as a number', () => {
    for (const value of ['', '  ', 'lots', 'Infinity', '1e999', 'NaN', null, true, [1], { n: 1 }])
      expect(numberOf(value)).toBeUndefined();
  });
});
