import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCall as call, transferMoneySchema } from '../../test/support/tool-call.js';
import { evaluateCall } from './evaluate-call.js';
import type { CallPolicy } from './policy-types.js';

const declared = new Map([
  ['transfer_money', transferMoneySchema],
  ['get_balance', { type: 'object', properties: {} }],
]);
const policies: CallPolicy[] = [
  { id: 'schema', kind: 'schema' },
  {
    id: 'limits',
    kind: 'arguments',
    tool: 'transfer_money',
    arguments: {
      amount: { min: 1, max: 10_000 },
      currency: { any_of: ['USD', 'EUR'] },
      email: { pattern: '[^@]+@example\\.com' },
    },
  },
  {
    id: 'no-delete',
    kind: 'never',
    tools: ['delete_account', { tool: 'transfer_money', arguments: { currency: 'XTS' } }],
  },
  { id: 'allow', kind: 'allow', tools: ['transfer_money', 'get_balance'] },
];
const reasons = (args: string, name = 'transfer_money', complete = true): string[] =>
  evaluateCall(policies, call(name, args, complete), declared, 'k').failures.map(
    (failure) => `${failure.policy}/${failure.reason}`,
  );

describe('evaluateCall', () => {
  it('passes a call that meets every policy, with score 1', () => {
    const result = evaluateCall(
      policies,
      call('transfer_money', '{"amount":120,"currency":"EUR","email":"ana@example.com"}'),
      declared,
      'k',
    );
    expect(result).toEqual({
      evaluated: ['schema', 'limits', 'no-delete', 'allow'],
      failures: [],
      score: 1,
    });
  });

  it('names the policy, reason, path and values of each breach', () => {
    expect(reasons('{"amount":25000,"currency":"USD"}')).toEqual(['limits/out_of_range']);
    expect(
      evaluateCall(policies, call('transfer_money', '{"amount":0.5}'), declared, 'k').failures[0],
    ).toMatchObject({
      path: 'amount',
      actual: 0.5,
      expected: { min: 1 },
      message: 'amount is 0.5, below the minimum 1',
    });
    expect(reasons('{"amount":5,"currency":"JPY"}')).toEqual(['limits/value_mismatch']);
    expect(reasons('{"amount":5,"email":"ana@evil.com"}')).toEqual(['limits/value_mismatch']);
    expect(reasons('{"amount":"lots"}')).toEqual([
      'schema/schema_violation',
      'limits/not_a_number',
    ]);
    expect(reasons('{"amount":5,"currency":"XTS"}')).toEqual([
      'limits/value_mismatch',
      'no-delete/forbidden_call',
    ]);
    expect(reasons('{}', 'delete_account')).toEqual([
      'schema/undeclared_tool',
      'no-delete/forbidden_call',
      'allow/unlisted_tool',
    ]);
    expect(reasons('{"amount":5', 'transfer_money')).toEqual([
      'schema/invalid_json',
      'limits/invalid_json',
    ]);
    expect(reasons('{"amount":5}', 'transfer_money', false)).toEqual(['schema/incomplete_call']);
  });

  it('judges a constraint by its own argument, whatever else in the call breaks the schema', () => {
    // An unknown extra argument breaks the schema policy, but the currency constraint still has its say.
    expect(reasons('{"amount":5,"currency":"JPY","note":"x"}')).toEqual([
      'schema/schema_violation',
      'limits/value_mismatch',
    ]);
    expect(reasons('{"amount":5,"currency":"EUR","note":"x"}')).toEqual([
      'schema/schema_violation',
    ]);
  });

  it('samples deterministically: the same call is evaluated or skipped the same way every time', () => {
    const sampledPolicies: CallPolicy[] = [{ id: 'half', kind: 'schema', sample: 0.5 }];
    fc.assert(
      fc.property(fc.string(), (key) => {
        const first = evaluateCall(
          sampledPolicies,
          call('get_balance', '{}'),
          declared,
          key,
        ).evaluated;
        expect(
          evaluateCall(sampledPolicies, call('get_balance', '{}'), declared, key).evaluated,
        ).toEqual(first);
      }),
    );
    const evaluated = Array.from(
      { length: 2000 },
      (_, index) =>
        evaluateCall(sampledPolicies, call('get_balance', '{}'), declared, `call-${index}`)
          .evaluated.length,
    ).reduce((sum, count) => sum + count, 0);
    expect(evaluated).toBeGreaterThan(850);
    expect(evaluated).toBeLessThan(1150);
  });

  it('keeps the score in [0, 1] and fails exactly the calls with a failure, whatever the arguments', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('amount', 'currency', 'email', 'other'), fc.jsonValue()),
        fc.constantFrom('transfer_money', 'get_balance', 'delete_account'),
        (args, name) => {
          const result = evaluateCall(policies, call(name, JSON.stringify(args)), declared, 'k');
          expect(result.score).toBeGreaterThanOrEqual(0);
          expect(result.score).toBeLessThanOrEqual(1);
          expect(result.score === 1).toBe(result.failures.length === 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
