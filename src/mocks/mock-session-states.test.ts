import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { MockSessionStates } from './mock-session-states.js';

describe('MockSessionStates', () => {
  it('starts each session from the declared state and keeps its changes to itself', () => {
    const states = new MockSessionStates(new Map([['status:A-17', 'shipped']]));
    expect(states.apply('case-1', new Map([['status:A-17', 'cancelled']]))).toBeUndefined();
    expect(states.read('case-1').get('status:A-17')).toBe('cancelled');
    expect(states.read('case-1#2').get('status:A-17')).toBe('shipped');
  });

  it('property: a session sees exactly its own changes, in order, whatever the interleaving', () => {
    const change = fc.record({
      session: fc.constantFrom('a', 'b', 'c', 'a#2'),
      key: fc.constantFrom('x', 'y', '__proto__', 'constructor'),
      value: fc.jsonValue() as fc.Arbitrary<JsonValue>,
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 40 }), (changes) => {
        const states = new MockSessionStates(new Map([['x', 0]]));
        const expected = new Map<string, Map<string, JsonValue>>();
        for (const { session, key, value } of changes) {
          states.apply(session, new Map([[key, value]]));
          const own = expected.get(session) ?? new Map<string, JsonValue>([['x', 0]]);
          own.set(key, value);
          expected.set(session, own);
        }
        for (const session of ['a', 'b', 'c', 'a#2'])
          expect(states.read(session)).toEqual(expected.get(session) ?? new Map([['x', 0]]));
      }),
    );
  });

  it('is bounded: past its capacity the least recently used session starts again from the declared state', () => {
    const states = new MockSessionStates(new Map(), 2);
    states.apply('one', new Map([['k', 1]]));
    states.apply('two', new Map([['k', 2]]));
    states.read('one');
    states.apply('three', new Map([['k', 3]]));
    expect(states.read('one').get('k')).toBe(1);
    expect(states.read('two').get('k')).toBeUndefined();
  });

  it('refuses a change that would pass the keys a session may hold, changing nothing', () => {
    const states = new MockSessionStates(new Map([['a', 1]]), 10, 2);
    expect(
      states.apply(
        's',
        new Map([
          ['b', 2],
          ['c', 3],
        ]),
      ),
    ).toMatch(/more than 2 keys/);
    expect([...states.read('s').keys()]).toEqual(['a']);
    expect(states.apply('s', new Map([['a', 5]]))).toBeUndefined();
  });
});
