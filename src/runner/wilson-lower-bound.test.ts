import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilsonLowerBound } from './wilson-lower-bound.js';

describe('wilsonLowerBound', () => {
  // Reference values from the closed form with z = 1.959964 (R: binom::binom.wilson, prop.test without correction).
  it('matches known Wilson lower bounds at 95% (to 4 decimals)', () => {
    expect(wilsonLowerBound(9, 10, 0.95)).toBeCloseTo(0.59585, 4);
    expect(wilsonLowerBound(90, 100, 0.95)).toBeCloseTo(0.82563, 4);
    expect(wilsonLowerBound(10, 10, 0.95)).toBeCloseTo(0.72247, 4);
    expect(wilsonLowerBound(0, 10, 0.95)).toBe(0);
    expect(wilsonLowerBound(5, 10, 0.95)).toBeCloseTo(0.23659, 4);
  });

  it('is 0 with no trials', () => {
    expect(wilsonLowerBound(0, 0, 0.95)).toBe(0);
  });

  it('lies in [0, observed rate], and tightens with more samples at the same rate and with less confidence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.5, max: 0.995, noNaN: true }),
        (total, share, confidence) => {
          const passed = Math.round(share * total);
          const bound = wilsonLowerBound(passed, total, confidence);
          expect(bound).toBeGreaterThanOrEqual(0);
          expect(bound).toBeLessThanOrEqual(passed / total + 1e-12);
          expect(wilsonLowerBound(passed * 4, total * 4, confidence)).toBeGreaterThanOrEqual(
            bound - 1e-12,
          );
          expect(wilsonLowerBound(passed, total, confidence / 2 + 0.25)).toBeGreaterThanOrEqual(
            bound - 1e-12,
          );
        },
      ),
    );
  });

  it('rises with every extra passing sample', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (total, seed) => {
        const passed = seed % total;
        expect(wilsonLowerBound(passed + 1, total, 0.95)).toBeGreaterThan(
          wilsonLowerBound(passed, total, 0.95),
        );
      }),
    );
  });
});
