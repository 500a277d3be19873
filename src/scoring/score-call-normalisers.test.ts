import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { namedNormalisers } from './normalise/named-normalisers.js';
import { scoreCall } from './score-call.js';
import { semanticTexts } from './semantic-texts.js';
import type { TestCase } from './types.js';

describe('named normalisers', () => {
  const one = (rule: Record<string, unknown>, expected: JsonValue, actual: JsonValue) =>
    scoreCall({ expected_tool: 't', arguments: { v: expected }, rules: { v: rule as never } }, [
      { name: 't', arguments: { v: actual } },
    ]).is_correct;

  it.each([
    [{ normalise: ['phone'] }, '+1 415 555 2671', '(415) 555-2671', true],
    [{ normalise: ['phone'], country: 'GB' }, '+44 20 7946 0958', '020 7946 0958', true],
    [{ normalise: ['phone'] }, '+1 415 555 2671', '(415) 555-2672', false],
    [{ normalise: ['money'] }, 1234.5, '$1,234.50', true],
    [{ normalise: ['money'] }, 1234.5, '1.234,50 €', true],
    [{ normalise: ['money'] }, 1234.5, 'USD 1234.51', false],
    [{ normalise: ['email'] }, 'Ops@Example.com', ' ops@example.COM ', true],
    [{ normalise: ['url'] }, 'https://Example.com:443', 'https://example.com/', true],
    [{ normalise: ['url'] }, 'https://example.com/a', 'https://example.com/b', false],
  ] as const)('%j: %j vs %j → %s', (rule, expected, actual, correct) => {
    expect(one(rule, expected, actual)).toBe(correct);
  });

  it('are idempotent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('phone', 'money', 'email', 'url', 'loose_string'),
        fc.oneof(
          fc.string(),
          fc.constantFrom('$1,234.50', '(415) 555-2671', 'HTTP://A.example:80/x', '1.234,50 €'),
        ),
        (name, value) => {
          const once = namedNormalisers[name](value, {});
          expect(namedNormalisers[name](once, {})).toEqual(once);
        },
      ),
    );
  });
});

describe('user normalisers', () => {
  it('are looked up by name, and an unknown name is an error, never a silent raw comparison', () => {
    const testCase: TestCase = {
      expected_tool: 't',
      arguments: { sku: 'AB-0012' },
      rules: { sku: { normalise: ['sku'] } },
    };
    const sku = (value: JsonValue): JsonValue =>
      typeof value === 'string' ? value.replace(/-0+/, '-').toUpperCase() : value;
    expect(
      scoreCall(testCase, [{ name: 't', arguments: { sku: 'ab-12' } }], { normalisers: { sku } })
        .is_correct,
    ).toBe(true);
    expect(() => scoreCall(testCase, [{ name: 't', arguments: { sku: 'ab-12' } }])).toThrow(
      /unknown normaliser "sku"/,
    );
  });
});

describe('semantic rules', () => {
  const vectors: Record<string, number[]> = {
    'cancel my subscription': [1, 0.1, 0],
    'end my membership': [0.95, 0.2, 0.05],
    'order a pizza': [0, 0.1, 1],
  };
  const embeddings = (text: string) => vectors[text];
  const testCase: TestCase = {
    expected_tool: 'support',
    arguments: { intent: 'cancel my subscription' },
    rules: { intent: { matching_strategy: 'semantic', threshold: 0.9 } },
  };

  it('match by embedding cosine at the threshold, with the similarity in the detail', () => {
    expect(
      scoreCall(testCase, [{ name: 'support', arguments: { intent: 'end my membership' } }], {
        embeddings,
      }).is_correct,
    ).toBe(true);
    const far = scoreCall(testCase, [{ name: 'support', arguments: { intent: 'order a pizza' } }], {
      embeddings,
    });
    expect(far.mismatches['intent']).toMatchObject({
      reason: 'value_mismatch',
      strategy: 'semantic',
    });
    expect(far.mismatches['intent']?.detail).toMatch(/^cosine 0\.\d+$/);
  });

  it('say so when an embedding is missing instead of guessing', () => {
    const result = scoreCall(
      testCase,
      [{ name: 'support', arguments: { intent: 'never embedded' } }],
      { embeddings },
    );
    expect(result.reasons).toEqual(['embedding_unavailable']);
  });

  it('list the texts to embed before scoring', () => {
    expect(
      semanticTexts(
        { ...testCase, rules: { intent: { matching_strategy: 'semantic', any_of: ['quit'] } } },
        [{ name: 'support', arguments: '{"intent":"end my membership","other":"x"}' }],
      ),
    ).toEqual(['cancel my subscription', 'end my membership', 'quit']);
  });
});
