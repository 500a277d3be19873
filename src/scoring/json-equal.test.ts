import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { jsonEqual } from './json-equal.js';
import { scoreCall } from './score-call.js';
import { scoreCallReference } from './score-call-reference.js';

/** The same value with every object rebuilt without a prototype, as `Object.create(null)` makes them. */
function withoutPrototypes(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  if (typeof value !== 'object' || value === null) return value;
  const bare = Object.create(null) as { [key: string]: JsonValue };
  for (const [key, item] of Object.entries(value)) bare[key] = withoutPrototypes(item);
  return bare;
}

describe('JSON equality', () => {
  it('agrees with Node’s deep strict equality on parsed JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(jsonEqual(left as JsonValue, right as JsonValue)).toBe(
          isDeepStrictEqual(left, right),
        );
        expect(jsonEqual(left as JsonValue, structuredClone(left) as JsonValue)).toBe(true);
      }),
    );
  });

  it('treats an object without a prototype as the plain object it spells (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonEqual(value as JsonValue, withoutPrototypes(value as JsonValue))).toBe(true);
      }),
    );
    expect(jsonEqual({ a: [1] }, { a: [1], b: null })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });

  it('scores an argument object without a prototype under a fuzzy rule (regression: a.valueOf is not a function)', () => {
    const bare = Object.create(null) as { [key: string]: JsonValue };
    const testCase = {
      expected_tool: 'u',
      arguments: { amount: bare },
      rules: { amount: { matching_strategy: 'fuzzy' as const, threshold: 0.7 } },
    };
    const calls = [
      { name: 'u', arguments: { amount: Object.create(null) as { [key: string]: JsonValue } } },
    ];
    const reference = scoreCallReference(testCase, calls);
    expect(reference.is_correct).toBe(true);
    expect(scoreCall(testCase, calls)).toEqual(reference);
  });
});
