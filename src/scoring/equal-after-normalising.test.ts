import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { equalAfterNormalising } from './equal-after-normalising.js';
import { scoreCall } from './score-call.js';
import type { TestCase } from './types.js';

// A rule on a path no argument has: it changes nothing but forces the full comparison.
const fullPath = { 'no such argument': { matching_strategy: 'ignore' } } as const;
const now = new Date('2026-11-30T12:00:00Z');

/** Leaves that normalise into one another: numeric strings, padded text, date-time spellings, yes/no, JSON text. */
const leaf = fc.oneof(
  fc.constantFrom<JsonValue>(
    250,
    '250',
    ' 250.00 ',
    250.5,
    '250.50',
    0,
    '0',
    true,
    'yes',
    'true',
    'off',
    false,
    null,
    'Paris',
    ' Paris ',
    'paris',
  ),
  fc.constantFrom<JsonValue>(
    '2026-03-30T15:00:00Z',
    '2026-03-30 15:00:00+00:00',
    '2026-03-30T17:00:00+02:00',
    '2026-03-30',
    '{{TODAY}}',
    '2026-11-30',
    'Cafe\u0301',
    'Café',
    '{"a":1}',
    '[1]',
    '',
  ),
  fc.integer({ min: -3, max: 3 }),
);
const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '$omitted'), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const args = fc.dictionary(
  fc.constantFrom('amount', 'city', 'at', 'flag', 'items', 'extra'),
  value,
  { maxKeys: 4 },
);

/** A second spelling of a value, chosen by `choices`: often the same meaning in another form, sometimes a different value. */
function variant(value: JsonValue, choices: number[]): JsonValue {
  const pick = (count: number): number => (choices.pop() ?? 0) % count;
  if (typeof value === 'number')
    return (
      [
        value,
        String(value),
        ` ${value} `,
        `${value}.0`,
        value + 1,
        value === 1 ? true : value === 0 ? false : -value,
      ] as JsonValue[]
    )[pick(6)] as JsonValue;
  if (typeof value === 'boolean')
    return ([value, value ? 'yes' : 'off', value ? 1 : 0, String(value), !value] as JsonValue[])[
      pick(5)
    ] as JsonValue;
  if (typeof value === 'string')
    return [value, ` ${value}\t`, value.toUpperCase(), value.normalize('NFD'), `${value}x`][
      pick(5)
    ] as JsonValue;
  if (value === null) return [null, 'null', 0][pick(3)] as JsonValue;
  if (Array.isArray(value)) {
    const items = value.map((item) => variant(item, choices));
    return [items, items.slice(1), [...items].reverse()][pick(3)] as JsonValue;
  }
  const entries = Object.entries(value)
    .map(([key, item]): [string, JsonValue] => [key, variant(item, choices)])
    .reverse();
  return Object.fromEntries(
    [entries, [...entries, ['force', true]], entries.slice(1)][pick(3)] as [string, JsonValue][],
  );
}
const pairs = fc
  .tuple(args, fc.array(fc.nat(), { maxLength: 40 }))
  .map(
    ([expected, choices]) =>
      [expected, variant(expected, choices) as { [key: string]: JsonValue }] as const,
  );

describe('equalAfterNormalising: the shortcut for matching calls', () => {
  it('never changes a score: with or without the full comparison, every result is the same (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(pairs, fc.tuple(args, args)),
        fc.constantFrom('ignore', 'penalize', 'fail') as fc.Arbitrary<
          'ignore' | 'penalize' | 'fail'
        >,
        ([expected, actual], extra) => {
          const testCase: TestCase = {
            expected_tool: 't',
            arguments: expected,
            extra_arguments: extra,
          };
          const calls = [{ name: 't', arguments: actual }];
          const shortcut = scoreCall(testCase, calls, { now });
          const full = scoreCall({ ...testCase, rules: fullPath }, calls, { now });
          expect(shortcut).toEqual(full);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers true only for calls the full comparison scores 1 with no mismatch (property)', () => {
    fc.assert(
      fc.property(fc.oneof(pairs, fc.tuple(args, args)), ([expected, actual]) => {
        if (!equalAfterNormalising(expected, actual, 'fail')) return;
        const full = scoreCall(
          { expected_tool: 't', arguments: expected, rules: fullPath },
          [{ name: 't', arguments: actual }],
          { now },
        );
        expect(full).toMatchObject({ is_correct: true, score: 1, mismatches: {} });
      }),
      { numRuns: 3000 },
    );
  });

  it('sees through coercion and key order, but not a different value or an extra argument', () => {
    expect(
      equalAfterNormalising(
        { amount: 250, memo: 'rent', at: '2026-03-30T15:00:00Z' },
        { at: '2026-03-30 17:00:00+02:00', memo: ' rent ', amount: '250.00' },
        'fail',
      ),
    ).toBe(true);
    expect(equalAfterNormalising({ amount: 250 }, { amount: '251' }, 'fail')).toBe(false);
    expect(equalAfterNormalising({ flag: true }, { flag: 1 }, 'fail')).toBe(false);
    expect(equalAfterNormalising({ amount: 250 }, { amount: 250, force: true }, 'fail')).toBe(
      false,
    );
    expect(equalAfterNormalising({ amount: 250 }, { amount: 250, force: true }, 'ignore')).toBe(
      true,
    );
  });

  it('leaves placeholders and omitted markers to the full comparison', () => {
    expect(equalAfterNormalising({ day: '{{TODAY}}' }, { day: '{{TODAY}}' }, 'fail')).toBe(false);
    expect(
      equalAfterNormalising({ day: { $omitted: true } }, { day: { $omitted: true } }, 'fail'),
    ).toBe(false);
  });
});
