import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInRuns } from './build-in-runs.js';

/** Sources as sizes; a negative size is one whose build fails. */
const sources = fc.array(fc.integer({ min: -3, max: 50 }), { maxLength: 80 });
const limits = fc.record({
  items: fc.integer({ min: 1, max: 10 }),
  bytes: fc.integer({ min: 1, max: 120 }),
});

describe('buildInRuns', () => {
  it('yields every build in order and skips the failed ones, whatever the limits', () => {
    fc.assert(
      fc.property(sources, limits, (sizes, runLimits) => {
        let skipped = 0;
        const out = [
          ...buildInRuns(
            sizes,
            (size) => (size < 0 ? undefined : size),
            (size) => size,
            runLimits,
            () => (skipped += 1),
          ),
        ];
        expect(out).toEqual(sizes.filter((size) => size >= 0));
        expect(skipped).toBe(sizes.filter((size) => size < 0).length);
      }),
    );
  });

  it('never has more than one run built and not yet taken', () => {
    fc.assert(
      fc.property(sources, limits, (sizes, runLimits) => {
        let built = 0;
        let builtBytes = 0;
        let taken = 0;
        let takenBytes = 0;
        const largest = Math.max(0, ...sizes);
        for (const size of buildInRuns(
          sizes,
          (source) => {
            if (source < 0) return undefined;
            built += 1;
            builtBytes += source;
            return source;
          },
          (source) => source,
          runLimits,
        )) {
          taken += 1;
          takenBytes += size;
          // What is held: the run being handed on, of which this one is taken.
          expect(built - taken).toBeLessThan(runLimits.items);
          expect(builtBytes - takenBytes).toBeLessThan(runLimits.bytes + largest);
        }
        expect(taken).toBe(built);
      }),
    );
  });

  it('builds no further than the first run before its first item is taken', () => {
    let built = 0;
    const runs = buildInRuns(
      Array.from({ length: 100 }, (_, index) => index),
      (index) => ((built += 1), index),
      () => 1,
      { items: 4, bytes: 1_000 },
    );
    expect(runs.next().value).toBe(0);
    expect(built).toBe(4);
  });
});
