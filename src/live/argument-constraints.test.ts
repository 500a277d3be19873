import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCall as call, transferMoneySchema } from '../../test/support/tool-call.js';
import type { JsonSchema } from '../trace/trace.js';
import { argumentFailures } from './argument-constraints.js';
import type { ArgumentConstraint, ArgumentsPolicy } from './policy-types.js';

const policy = (
  arguments_: { readonly [path: string]: ArgumentConstraint },
  tool: ArgumentsPolicy['tool'] = 'transfer_money',
): ArgumentsPolicy => ({ id: 'limits', kind: 'arguments', tool, arguments: arguments_ });

/** The failures of a `transfer_money` call with these raw arguments, against the transfer schema. */
const failures = (
  limits: ArgumentsPolicy,
  args: string,
  schema: JsonSchema = transferMoneySchema,
) => argumentFailures(limits, call('transfer_money', args), schema, {}).failures;

describe('argumentFailures', () => {
  it('coerces like the scoring engine: a numeric string meets a range, any_of compares after the schema', () => {
    const loose = policy({
      amount: { max: 100 },
      currency: { any_of: ['usd'], matching_strategy: 'ignore_case' },
    });
    expect(failures(loose, '{"amount":"99.5","currency":"USD"}')).toEqual([]);
  });

  it('fails a value its own schema refuses, whatever the constraint would say of it', () => {
    expect(
      failures(policy({ currency: { any_of: ['USD'] } }), '{"amount":5,"currency":5}'),
    ).toMatchObject([{ reason: 'value_mismatch', path: 'currency', actual: 5 }]);
  });

  it('leaves an absent optional argument alone, and fails an absent required one', () => {
    const result = argumentFailures(
      policy({ email: { required: true, pattern: '.+@.+' }, currency: { any_of: ['USD'] } }),
      call('transfer_money', '{"amount":1}'),
      transferMoneySchema,
      {},
    );
    expect(result.failures).toEqual([
      { policy: 'limits', reason: 'missing_argument', message: 'email is missing', path: 'email' },
    ]);
    expect(result.score).toBe(0.5);
  });

  it('fails arguments that are not a JSON object as a whole, with score 0', () => {
    const limits = policy({ amount: { max: 100 } });
    for (const [args, message] of [
      ['{"amount":', /^the arguments are not JSON: /],
      ['[1]', /^the arguments are not a JSON object$/],
      ['null', /^the arguments are not a JSON object$/],
    ] as const) {
      const result = argumentFailures(limits, call('transfer_money', args), undefined, {});
      expect(result.score).toBe(0);
      expect(result.failures).toEqual([
        {
          policy: 'limits',
          reason: 'invalid_json',
          message: expect.stringMatching(message) as string,
        },
      ]);
    }
  });

  it('passes a number within its bounds, and names the bound it is outside of (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        (amount, low, high, asText) => {
          const [min, max] = low <= high ? [low, high] : [high, low];
          const found = failures(
            policy({ amount: { min, max } }),
            JSON.stringify({ amount: asText ? String(amount) : amount }),
            { type: 'object' },
          );
          if (amount >= min && amount <= max) expect(found).toEqual([]);
          else
            expect(found).toMatchObject([
              {
                reason: 'out_of_range',
                path: 'amount',
                expected: amount < min ? { min } : { max },
              },
            ]);
        },
      ),
    );
  });

  it('fails each constraint at most once, at its own path, and scores the fraction met (property)', () => {
    const limits = policy({
      amount: { min: 1, max: 10_000 },
      currency: { any_of: ['USD', 'EUR'] },
      email: { required: true, pattern: '[^@]+@example\\.com' },
      'fee.amount': { max: 5 },
    });
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom('USD', 'EUR', 'ana@example.com', 3, '3'),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('amount', 'currency', 'email', 'fee', 'other'), value),
        (args) => {
          const result = argumentFailures(
            limits,
            call('transfer_money', JSON.stringify(args)),
            transferMoneySchema,
            {},
          );
          const paths = result.failures.map((failure) => failure.path);
          expect(new Set(paths).size).toBe(paths.length);
          for (const path of paths) expect(Object.keys(limits.arguments)).toContain(path);
          expect(result.score).toBe((4 - result.failures.length) / 4);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scores a constraint shared by two tools and two paths against each, however often it is reused (the compiled case is per constraint, tool and path)', () => {
    const shared = { matching_strategy: 'ignore_case' as const, value: 'eur' };
    const both = policy({ currency: shared, 'fee.currency': shared }, ['pay', 'refund']);
    const pay: JsonSchema = {
      type: 'object',
      properties: {
        currency: { type: 'string' },
        fee: { type: 'object', properties: { currency: { type: 'string' } } },
      },
    };
    const paths = (tool: string, args: string, schema: JsonSchema): (string | undefined)[] =>
      argumentFailures(both, call(tool, args), schema, {}).failures.map((failure) => failure.path);
    for (let round = 0; round < 3; round++) {
      // A schema parsed afresh, as every request brings one.
      expect(
        paths('pay', '{"currency":"EUR","fee":{"currency":"Eur"}}', structuredClone(pay)),
      ).toEqual([]);
      expect(
        paths('refund', '{"currency":"USD","fee":{"currency":"EUR"}}', { type: 'object' }),
      ).toEqual(['currency']);
      expect(paths('pay', '{"currency":"eur","fee":{"currency":"GBP"}}', pay)).toEqual([
        'fee.currency',
      ]);
    }
  });

  it('reads a policy path through own properties only (regression: a constructor path read Object.prototype)', () => {
    const inherited = policy({
      constructor: { required: true, matching_strategy: 'exact' as const, value: 'x' },
    });
    expect(failures(inherited, '{"amount":5}')).toMatchObject([
      { reason: 'missing_argument', path: 'constructor' },
    ]);
    expect(failures(inherited, '{"constructor":"x"}')).toEqual([]);
  });

  it('evaluates a reloaded policy by its own constraints, though it keeps its id and paths', () => {
    const limits = (currencies: string[]): ArgumentsPolicy =>
      policy({ currency: { any_of: currencies }, 'nested.depth': { max: 1 } });
    const args = '{"amount":5,"currency":"GBP","nested":{"depth":2}}';
    const paths = (made: ArgumentsPolicy): (string | undefined)[] =>
      failures(made, args).map((failure) => failure.path);
    expect(paths(limits(['USD']))).toEqual(['currency', 'nested.depth']);
    expect(paths(limits(['GBP']))).toEqual(['nested.depth']);
  });
});
