import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LabelGuard } from './label-guard.js';

describe('LabelGuard', () => {
  it('passes the first values through and folds later ones into "other"', () => {
    const guard = new LabelGuard(2);
    expect([
      guard.value('a'),
      guard.value('b'),
      guard.value('c'),
      guard.value('a'),
      guard.value(undefined),
      guard.value('x'.repeat(100)),
    ]).toEqual(['a', 'b', 'other', 'a', 'other', 'other']);
  });

  it('never yields more than limit + 1 distinct values, and at most 64 characters each', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.string({ maxLength: 120 }), { maxLength: 300 }),
        (limit, values) => {
          const guard = new LabelGuard(limit);
          const seen = new Set(values.map((value) => guard.value(value)));
          expect(seen.size).toBeLessThanOrEqual(limit + 1);
          for (const value of seen) expect(value.length).toBeLessThanOrEqual(64);
        },
      ),
    );
  });
});
