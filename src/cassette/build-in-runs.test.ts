import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInRuns } from './build-in-runs.js';

/** Sources as sizes; a negative size is one whose build fails. */
const sources = fc.array(fc.integer({ min: -3, max: 50 }), { maxLength: 80 });
const limits = fc.record({
  items: fc.integer({ min: 1, max: 10 }),
  bytes: fc.integer({ min: 1, max: 120 }),
});
const sizeOf = (size: number): number => size;

describe('buildInRuns', () => {
  it('hands on every build in order, in runs within the limits, and skips the failed ones', () => {
    fc.assert(
      fc.property(sources, limits, (sizes, runLimits) => {
        let skipped = 0;
        const runs = [
          ...buildInRuns(
            sizes,
            (size) => (size < 0 ? undefined : size),
            sizeOf,
            runLimits,
            () => (skipped += 1),
          ),
        ];
        expect(runs.flat()).toEqual(sizes.filter((size) => size >= 0));
        expect(skipped).toBe(sizes.filter((size) => size < 0).length);
        for (const run of runs) {
          expect(run.length).toBeGreaterThan(0);
          expect(run.length).toBeLessThanOrEqual(runLimits.items);
          // A run closes once it reaches the byte limit: all but its last source fit under it.
          expect(run.slice(0, -1).reduce((sum, size) => sum + size, 0)).toBeLessThan(
            runLimits.bytes,
          );
        }
      }),
    );
  });

  it('builds no further than the run it hands on', () => {
    let built = 0;
    const runs = buildInRuns(
      Array.from({ length: 100 }, (_, index) => index),
      (index) => ((built += 1), index),
      () => 1,
      { items: 4, bytes: 1_000 },
    );
    expect(runs.next().value).toEqual([0, 1, 2, 3]);
    expect(built).toBe(4);
  });
});
