import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { compileCase } from './compile-case.js';
import { looseString } from './normalise/loose-string.js';
import { scoreCallReference } from './score-call-reference.js';
import type { ArgumentRule, TestCase } from './types.js';

/** A case expecting `tags` (a list of strings) with one rule for every element. */
function listCase(
  expected: readonly JsonValue[],
  rule: ArgumentRule,
  list?: ArgumentRule,
): TestCase {
  return {
    test_id: 'tags',
    expected_tool: 'label',
    arguments: { tags: [...expected] },
    rules: { 'tags[]': rule, ...(list ? { tags: list } : {}) },
  };
}

/** The verdict of both walks: the reference and the compiled one must agree. */
function scores(testCase: TestCase, tags: readonly JsonValue[]): number {
  const call = { name: 'label', arguments: { tags: [...tags] } };
  const reference = scoreCallReference(testCase, [call]);
  const compiled = compileCase(testCase).score([call], {});
  expect(compiled).toEqual(reference);
  return reference.score;
}

describe('bug: a rule on `name[]` was not applied to the string elements of a list', () => {
  it('loose_string on `tags[]` folds each string element', () => {
    const testCase = listCase(['Personal Info', 'a-b'], { matching_strategy: 'loose_string' });
    expect(scores(testCase, ['PERSONAL INFO', 'ab'])).toBe(1);
    expect(scores(testCase, ['PERSONAL INFO', 'abc'])).toBe(0.5);
  });

  it('ignore_case on `tags[]` applies to each element, in either order under unordered', () => {
    const testCase = listCase(
      ['Paris', 'Rome'],
      { matching_strategy: 'ignore_case' },
      { unordered: true },
    );
    expect(scores(testCase, ['rome', 'PARIS'])).toBe(1);
  });

  it('a list element keeps its own strategy when the rule is on the list itself', () => {
    const testCase: TestCase = {
      test_id: 'tags',
      expected_tool: 'label',
      arguments: { tags: ['Paris'] },
      rules: { tags: { unordered: true } },
    };
    expect(scores(testCase, ['paris'])).toBe(0);
  });

  it('a mismatching element under a critical `tags[]` rule zeroes the call', () => {
    const testCase = listCase(['a', 'b'], { matching_strategy: 'exact', critical: true });
    expect(scores(testCase, ['a', 'c'])).toBe(0);
  });

  it('property: with loose_string on `tags[]`, a list scores 1 exactly when its strings fold equal element by element', () => {
    const text = fc.constantFrom('Paris', 'paris', ' PARIS ', 'Par-is', 'Rome', 'a_b', 'ab', '');
    fc.assert(
      fc.property(
        // A rule on `tags[]` needs an expected element to compare with, so the expected list is never empty.
        fc.array(text, { minLength: 1, maxLength: 4 }),
        fc.array(text, { maxLength: 4 }),
        (expected, actual) => {
          const testCase = listCase(expected, { matching_strategy: 'loose_string' });
          const same =
            expected.length === actual.length &&
            expected.every((item, index) => looseString(item) === looseString(actual[index] ?? ''));
          expect(scores(testCase, actual) === 1).toBe(same);
        },
      ),
    );
  });
});
