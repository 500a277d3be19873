import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSessionIds, sortBySession, splitSample } from './session-order.js';

describe('compareSessionIds', () => {
  it('orders by case id, then samples numerically after their case (#10 after #9)', () => {
    const ids = ['b', 'a#10', 'a#2', 'a', 'a#9', 'a-b', 'a#1'];
    expect([...ids].sort(compareSessionIds)).toEqual([
      'a',
      'a#1',
      'a#2',
      'a#9',
      'a#10',
      'a-b',
      'b',
    ]);
  });

  it('reads only a trailing #<digits> as a sample; other # stay part of the case id', () => {
    expect(splitSample('case#x')).toEqual({ case: 'case#x', sample: 0n });
    expect(splitSample('a#b#3')).toEqual({ case: 'a#b', sample: 3n });
    expect(splitSample('x#123456789012345678901234567890').sample).toBe(
      123456789012345678901234567890n,
    );
  });

  it('is a total order: antisymmetric, transitive, 0 only for the same id (property)', () => {
    const id = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.tuple(fc.constantFrom('a', 'b', 'a#1'), fc.nat({ max: 20 })).map(([c, n]) => `${c}#${n}`),
    );
    fc.assert(
      fc.property(id, id, id, (a, b, c) => {
        expect(Math.sign(compareSessionIds(a, b)) + Math.sign(compareSessionIds(b, a))).toBe(0);
        expect(compareSessionIds(a, b) === 0).toBe(a === b);
        if (compareSessionIds(a, b) <= 0 && compareSessionIds(b, c) <= 0)
          expect(compareSessionIds(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
});

describe('sortBySession', () => {
  it('gives the same order for any recording order, keeping turns of a session in the order given (property)', () => {
    const turns = fc.uniqueArray(
      fc.tuple(
        fc.constantFrom('beta', 'alpha', 'alpha#2', 'alpha#10', 'gamma'),
        fc.nat({ max: 3 }),
      ),
      { selector: ([session, turn]) => `${session}/${turn}` },
    );
    fc.assert(
      fc.property(turns, fc.infiniteStream(fc.nat()), (items, picks) => {
        // Interleave the sessions differently while keeping each session's turns in order.
        const recorded = [...items].sort((a, b) => a[1] - b[1]);
        const shuffled: (typeof recorded)[number][] = [];
        const queues = new Map<string, (typeof recorded)[number][]>();
        for (const item of recorded) queues.set(item[0], [...(queues.get(item[0]) ?? []), item]);
        const pick = picks[Symbol.iterator]();
        while (queues.size > 0) {
          const keys = [...queues.keys()];
          const key = keys[(pick.next().value as number) % keys.length] as string;
          const queue = queues.get(key) ?? [];
          shuffled.push(queue.shift() as (typeof recorded)[number]);
          if (queue.length === 0) queues.delete(key);
        }
        const sessionOf = (item: (typeof recorded)[number]): string => item[0];
        expect(sortBySession(shuffled, sessionOf)).toEqual(sortBySession(recorded, sessionOf));
      }),
    );
  });
});
