import fc from 'fast-check';
import fastStableStringify from 'fast-json-stable-stringify';
import { describe, expect, it } from 'vitest';
import { awkwardJson, awkwardKey } from '../test/support/awkward-json.js';
import { stableStringify } from './stable-stringify.js';

/** Plain data that is not JSON, in the places callers could hand it over: inside objects and arrays. */
const beyondJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    awkwardJson,
    fc.constantFrom(undefined, Number.NaN, Infinity, -Infinity, () => 1, Symbol('s')),
    fc.date(),
    awkwardJson.map((inner) => ({ toJSON: () => inner })),
    fc.constant({ toJSON: () => undefined }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(awkwardKey, tie('value'), { maxKeys: 6 }),
  ),
})).value;

// Cassette keys (LLM and MCP) are hashes of this text and were written by fast-json-stable-stringify:
// if the two ever write different text for the same value, recorded cassettes stop matching.
describe('stableStringify', () => {
  it('is the text fast-json-stable-stringify wrote, for every JSON value', () => {
    fc.assert(
      fc.property(awkwardJson, (value) => {
        // As parsed from the wire, too: an own `__proto__` key is data then, not the prototype.
        const parsed = JSON.parse(JSON.stringify(value));
        for (const each of [value, parsed])
          expect(stableStringify(each)).toBe(fastStableStringify(each));
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts objects of more than 200 keys as the old library did (another sort path)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(awkwardKey, fc.integer(), { minKeys: 201, maxKeys: 260 }),
        (value) => {
          expect(stableStringify(value)).toBe(fastStableStringify(value));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('writes undefined, functions, symbols, NaN, infinities, dates and toJSON as the old library did', () => {
    fc.assert(
      fc.property(fc.array(beyondJson, { maxLength: 4 }), beyondJson, (array, inside) => {
        for (const each of [array, { inside }])
          expect(stableStringify(each)).toBe(fastStableStringify(each));
      }),
      { numRuns: 500 },
    );
    expect(stableStringify({ a: undefined, b: [undefined, Number.NaN, () => 1] })).toBe(
      '{"b":[null,null,null]}',
    );
  });

  it('throws a TypeError on a cycle, as the old library did, and writes a shared object at each place', () => {
    const cycle: { self?: unknown } = {};
    cycle.self = { back: [cycle] };
    expect(() => fastStableStringify(cycle)).toThrow(TypeError);
    expect(() => stableStringify(cycle)).toThrow(TypeError);
    const shared = { z: 1, a: 2 };
    expect(stableStringify([shared, { shared }])).toBe(fastStableStringify([shared, { shared }]));
    expect(stableStringify([shared, { shared }])).toBe('[{"a":2,"z":1},{"shared":{"a":2,"z":1}}]');
  });
});
