import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { chooseAnswer, renderAnswer } from '../mocks/choose-answer.js';
import type { JsonValue } from '../trace/trace.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { resolvePlaceholders } from './placeholders.js';
import { scoreCall } from './score-call.js';
import { scoreCallReference } from './score-call-reference.js';
import { omitted, type TestCase } from './types.js';

/** Every name Object.prototype has (constructor, toString, __proto__, hasOwnProperty, …). */
const inherited = Object.getOwnPropertyNames(Object.prototype);
const key = fc.oneof(
  fc.constantFrom(...inherited),
  fc.constantFrom('a', 'b', 'amount'),
  fc.string({ maxLength: 6 }).filter((name) => !/[.[\]*]/.test(name)),
);
// (Dots, brackets and stars are path syntax in rules: such keys are compared, but cannot carry a rule.)
const leaf = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
  fc.constant(null),
);
/** Objects with arbitrary own keys, built as JSON.parse builds them: `__proto__` is an own key, not the prototype. */
const args = fc
  .uniqueArray(fc.tuple(key, leaf), { selector: ([name]) => name, maxLength: 4 })
  .map(
    (entries) =>
      JSON.parse(
        JSON.stringify(
          Object.fromEntries(entries.map(([name, value]) => [`\u0000${name}`, value])),
        ).replaceAll('\\u0000', ''),
      ) as { [key: string]: JsonValue },
  );

describe('issue 17: inherited names never count as arguments, rules or schemas', () => {
  it.each(inherited)(
    'an extra "%s" argument fails the call under extra_arguments: fail',
    (name) => {
      const sent = JSON.parse(`{"amount": 5, ${JSON.stringify(name)}: "x"}`) as {
        [key: string]: JsonValue;
      };
      const result = scoreCall(
        { expected_tool: 't', arguments: { amount: 5 }, extra_arguments: 'fail' },
        [{ name: 't', arguments: sent }],
      );
      expect(result.is_correct).toBe(false);
      expect(result.reasons).toContain('unexpected_argument');
      expect(Object.keys(result.mismatches)).toEqual([name]);
    },
  );

  it.each(inherited)(
    'a must-be-absent rule on "%s" passes when the argument is absent and fails when it is sent',
    (name) => {
      const testCase: TestCase = {
        expected_tool: 't',
        arguments: {},
        rules: JSON.parse(
          `{${JSON.stringify(name)}: {"any_of": [{"$omitted": true}]}}`,
        ) as NonNullable<TestCase['rules']>,
      };
      expect(scoreCall(testCase, [{ name: 't', arguments: {} }]).is_correct).toBe(true);
      expect(
        scoreCall(testCase, [{ name: 't', arguments: `{${JSON.stringify(name)}: 1}` }]).reasons,
      ).toEqual(['must_be_omitted']);
    },
  );

  it('a tool named after an inherited name has no schema unless one is given', () => {
    for (const name of inherited)
      expect(
        scoreCall({ expected_tool: name, arguments: { a: 1 } }, [{ name, arguments: { a: '1' } }], {
          schemas: {},
        }).is_correct,
      ).toBe(true);
  });

  it('scores arbitrary own keys, including every Object.prototype name, like any other key, and never touches a prototype (property)', () => {
    fc.assert(
      fc.property(
        args,
        args,
        fc.constantFrom<'ignore' | 'penalize' | 'fail'>('ignore', 'penalize', 'fail'),
        (expected, actual, extra) => {
          const testCase: TestCase = {
            expected_tool: 't',
            arguments: expected,
            extra_arguments: extra,
            rules: Object.fromEntries(
              Object.keys(expected)
                .slice(0, 1)
                .map((name) => [name, { matching_strategy: 'ignore_case' as const }]),
            ),
          };
          const result = scoreCall(testCase, [{ name: 't', arguments: actual }]);
          expect(JSON.stringify(result)).toBe(
            JSON.stringify(scoreCallReference(testCase, [{ name: 't', arguments: actual }])),
          );
          // Same keys and values: correct; a key only one side has: never silently equal.
          const same =
            JSON.stringify(Object.entries(expected).sort()) ===
            JSON.stringify(Object.entries(actual).sort());
          if (same) expect(result.is_correct).toBe(true);
          const missing = Object.keys(expected).filter((name) => !Object.hasOwn(actual, name));
          for (const name of missing)
            expect(result.mismatches[name]?.reason).toBe('missing_argument');
          if (
            extra === 'fail' &&
            Object.keys(actual).some((name) => !Object.hasOwn(expected, name))
          )
            expect(result.is_correct).toBe(false);
          for (const value of [
            result,
            result.mismatches,
            normaliseBySchema(
              actual,
              { type: 'object', properties: { constructor: { type: 'number', default: 1 } } },
              true,
            ),
            resolvePlaceholders(expected, new Date(0)),
          ])
            expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
          expect(Object.keys(Object.prototype)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a mock condition or template on an inherited name reads own arguments only', () => {
    const mock = {
      tool: 't',
      when: [{ arguments: { constructor: 'x' }, result: 'matched' }],
      otherwise: { result: '{{args.toString}}' },
    };
    expect(
      chooseAnswer(
        mock,
        { id: 'c', name: 't', argumentsRaw: '{}' },
        { session: 's', occurrence: 0 },
      ),
    ).toEqual(mock.otherwise);
    expect(
      chooseAnswer(
        mock,
        { id: 'c', name: 't', argumentsRaw: '{"constructor":"x"}' },
        { session: 's', occurrence: 0 },
      ),
    ).toBe(mock.when[0]);
    expect(
      renderAnswer(mock, mock.otherwise, { id: 'c', name: 't', argumentsRaw: '{}' }),
    ).toMatchObject({ isError: true });
  });

  it('a suite written in YAML with __proto__ and constructor keys scores them as arguments and pollutes nothing', () => {
    const testCase = parseYaml(
      'expected_tool: t\narguments:\n  __proto__: { polluted: true }\n  constructor: x\n',
    ) as TestCase;
    expect(
      scoreCall(testCase, [
        { name: 't', arguments: '{"__proto__": {"polluted": true}, "constructor": "x"}' },
      ]).is_correct,
    ).toBe(true);
    expect(
      scoreCall(testCase, [{ name: 't', arguments: '{"constructor": "x"}' }]).mismatches[
        '__proto__'
      ]?.reason,
    ).toBe('missing_argument');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('keeps an omitted marker meaning the same in the case and in a call', () => {
    expect(
      scoreCall({ expected_tool: 't', arguments: { unit: omitted } }, [
        { name: 't', arguments: '{"__proto__": {"$omitted": true}}' },
      ]).reasons,
    ).toEqual(['unexpected_argument']);
  });
});
