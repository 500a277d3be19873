import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('is a version-7, RFC 9562-variant UUID carrying the millisecond timestamp', () => {
    const id = timeOrderedId(Date.UTC(2026, 10, 30));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 30));
  });

  it('sorts as its timestamps do', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.integer({ min: 1, max: 2 ** 20 }),
        (earlier, gap) => {
          expect(timeOrderedId(earlier) < timeOrderedId(earlier + gap)).toBe(true);
        },
      ),
    );
  });
});
