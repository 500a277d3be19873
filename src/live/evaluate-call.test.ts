import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolCall } from '../trace/trace.js';
import { evaluateCall } from './evaluate-call.js';
import type { CallPolicy } from './policy-types.js';

const transferSchema: JsonSchema = {
  type: 'object',
  properties: {
    amount: { type: 'number' },
    currency: { type: 'string' },
    email: { type: 'string' },
  },
  required: ['amount'],
  additionalProperties: false,
};
const declared = {
  transfer_money: transferSchema,
  get_balance: { type: 'object', properties: {} },
};
const call = (name: string, args: string, complete = true): ToolCall => {
  let parsed: ToolCall['arguments'];
  try {
    parsed = { ok: true, value: JSON.parse(args) as never };
  } catch (error) {
    parsed = { ok: false, error: (error as Error).message };
  }
  return { id: 'call_1', index: 0, name, argumentsRaw: args, arguments: parsed, complete };
};
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

  it('coerces like the scoring engine: a numeric string meets a range, any_of compares after the schema', () => {
    const loose: CallPolicy[] = [
      {
        id: 'limits',
        kind: 'arguments',
        tool: 'transfer_money',
        arguments: {
          amount: { max: 100 },
          currency: { any_of: ['usd'], matching_strategy: 'ignore_case' },
        },
      },
    ];
    expect(
      evaluateCall(
        loose,
        call('transfer_money', '{"amount":"99.5","currency":"USD"}'),
        declared,
        'k',
      ).failures,
    ).toEqual([]);
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
    // A value its own schema refuses cannot meet a constraint on it.
    const result = evaluateCall(
      [
        {
          id: 'limits',
          kind: 'arguments',
          tool: 'transfer_money',
          arguments: { currency: { any_of: ['USD'] } },
        },
      ],
      call('transfer_money', '{"amount":5,"currency":5}'),
      declared,
      'k',
    );
    expect(result.failures).toMatchObject([
      { reason: 'value_mismatch', path: 'currency', actual: 5 },
    ]);
  });

  it('leaves an absent optional argument alone, and fails an absent required one', () => {
    const required: CallPolicy[] = [
      {
        id: 'email',
        kind: 'arguments',
        tool: 'transfer_money',
        arguments: { email: { required: true, pattern: '.+@.+' }, currency: { any_of: ['USD'] } },
      },
    ];
    const result = evaluateCall(required, call('transfer_money', '{"amount":1}'), declared, 'k');
    expect(result.failures).toEqual([
      { policy: 'email', reason: 'missing_argument', message: 'email is missing', path: 'email' },
    ]);
    expect(result.score).toBe(0.5);
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

  it('scores a constraint shared by two tools and two paths against each, however often it is reused (the compiled case is per constraint, tool and path)', () => {
    const shared = { matching_strategy: 'ignore_case' as const, value: 'eur' };
    const both: CallPolicy[] = [
      {
        id: 'eur',
        kind: 'arguments',
        tool: ['pay', 'refund'],
        arguments: { currency: shared, 'fee.currency': shared },
      },
    ];
    const schemas = {
      pay: {
        type: 'object',
        properties: {
          currency: { type: 'string' },
          fee: { type: 'object', properties: { currency: { type: 'string' } } },
        },
      },
      refund: { type: 'object' },
    };
    for (let round = 0; round < 3; round++) {
      expect(
        evaluateCall(
          both,
          call('pay', '{"currency":"EUR","fee":{"currency":"Eur"}}'),
          JSON.parse(JSON.stringify(schemas)) as typeof schemas,
          'k',
        ).failures,
      ).toEqual([]);
      expect(
        evaluateCall(
          both,
          call('refund', '{"currency":"USD","fee":{"currency":"EUR"}}'),
          schemas,
          'k',
        ).failures.map((failure) => failure.path),
      ).toEqual(['currency']);
      expect(
        evaluateCall(
          both,
          call('pay', '{"currency":"eur","fee":{"currency":"GBP"}}'),
          schemas,
          'k',
        ).failures.map((failure) => failure.path),
      ).toEqual(['fee.currency']);
    }
  });

  it('reads a policy path through own properties only (regression: a constructor path read Object.prototype)', () => {
    const inherited: CallPolicy[] = [
      {
        id: 'ctor',
        kind: 'arguments',
        tool: 'transfer_money',
        arguments: {
          constructor: { required: true, matching_strategy: 'exact' as const, value: 'x' },
        },
      },
    ];
    expect(
      evaluateCall(inherited, call('transfer_money', '{"amount":5}'), declared, 'k').failures,
    ).toMatchObject([{ reason: 'missing_argument', path: 'constructor' }]);
    expect(
      evaluateCall(inherited, call('transfer_money', '{"constructor":"x"}'), declared, 'k')
        .failures,
    ).toEqual([]);
  });

  it('evaluates a reloaded policy by its own constraints, though it keeps its id and paths', () => {
    const limits = (currencies: string[]): CallPolicy => ({
      id: 'limits',
      kind: 'arguments',
      tool: 'transfer_money',
      arguments: { currency: { any_of: currencies }, 'nested.depth': { max: 1 } },
    });
    const made = call('transfer_money', '{"amount":5,"currency":"GBP","nested":{"depth":2}}');
    const before = evaluateCall([limits(['USD'])], made, declared, 'k');
    expect(before.failures.map((failure) => failure.path)).toEqual(['currency', 'nested.depth']);
    const after = evaluateCall([limits(['GBP'])], made, declared, 'k');
    expect(after.failures.map((failure) => failure.path)).toEqual(['nested.depth']);
  });
});
