import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { ruleTable } from './rule-table.js';
import { scoreCall } from './score-call.js';
import { scoreCallReference } from './score-call-reference.js';
import type { ScoreOptions, TestCase } from './types.js';
import { undeclaredArguments } from './undeclared-arguments.js';

const refundSchema: JsonSchema = {
  type: 'object',
  properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
  required: ['order_id'],
};
const refund = (extra?: TestCase['extra_arguments']): TestCase => ({
  expected_tool: 'issue_refund',
  arguments: { order_id: 'A-17' },
  ...(extra === undefined ? {} : { extra_arguments: extra }),
});
const options = { schemas: { issue_refund: refundSchema } };
/** The compiled scorer runs from a case's second scoring on: score both ways. */
const bothWays = (testCase: TestCase, args: object, schemas: ScoreOptions = options) => {
  const calls = [{ name: 'issue_refund', arguments: JSON.stringify(args) }];
  const first = scoreCall(testCase, calls, schemas);
  expect(scoreCall(testCase, calls, schemas)).toEqual(first);
  return first;
};

describe('issue 31: extra_arguments defaults to schema (a declared argument the case leaves out is accepted)', () => {
  it('accepts an argument the tool declares that the case does not mention', () => {
    expect(bothWays(refund(), { order_id: 'A-17', reason: 'arrived broken' })).toMatchObject({
      is_correct: true,
      score: 1,
      reasons: [],
    });
  });

  it('fails an argument the tool does not declare, naming it and why', () => {
    const result = bothWays(refund(), { order_id: 'A-17', force: true });
    expect(result).toMatchObject({
      is_correct: false,
      score: 0,
      reasons: ['unexpected_argument'],
      error_message: 'an argument that was not expected was given',
      mismatches: {
        force: {
          actual: true,
          reason: 'unexpected_argument',
          detail: "the tool's schema does not declare it",
        },
      },
    });
  });

  it('keeps fail where no schema is known, and fail, ignore and penalize when the case says so', () => {
    const sent = { order_id: 'A-17', reason: 'arrived broken' };
    expect(bothWays(refund(), sent, { schemas: {} }).reasons).toEqual(['unexpected_argument']);
    expect(bothWays(refund('fail'), sent).is_correct).toBe(false);
    expect(bothWays(refund('ignore'), { ...sent, force: true }).is_correct).toBe(true);
    expect(bothWays(refund('penalize'), sent).score).toBeCloseTo(0.5);
    expect(bothWays(refund('schema'), sent).is_correct).toBe(true);
  });

  it('counts an argument a rule names, or a patternProperties pattern declares, as mentioned or declared', () => {
    const withRule: TestCase = { ...refund(), rules: { 'note*': { matching_strategy: 'ignore' } } };
    expect(bothWays(withRule, { order_id: 'A-17', note_1: 'x' }).is_correct).toBe(true);
    const patterned = {
      schemas: { issue_refund: { ...refundSchema, patternProperties: { '^x-': {} } } },
    };
    expect(bothWays(refund(), { order_id: 'A-17', 'x-trace': 'y' }, patterned).is_correct).toBe(
      true,
    );
  });

  it('a declared argument never changes a score, an undeclared one always fails the call (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 6 }).filter((name) => name !== 'order_id');
    fc.assert(
      fc.property(key, fc.jsonValue(), fc.boolean(), (name, value, declared) => {
        const schema: JsonSchema = {
          type: 'object',
          properties: { order_id: { type: 'string' }, ...(declared ? { [name]: {} } : {}) },
        };
        const calls = [
          { name: 'issue_refund', arguments: { order_id: 'A-17', [name]: value as JsonValue } },
        ];
        const result = scoreCallReference(refund(), calls, { schemas: { issue_refund: schema } });
        expect(result.is_correct).toBe(declared);
        if (!declared) expect(result.reasons).toEqual(['unexpected_argument']);
      }),
    );
  });

  it('lists undeclared arguments in the order sent, own keys only', () => {
    const sent = JSON.parse('{"b":1,"order_id":"A-17","__proto__":2,"a":3}') as {
      [key: string]: JsonValue;
    };
    expect(
      undeclaredArguments(sent, { order_id: 'A-17' }, ruleTable(undefined), refundSchema),
    ).toEqual(['b', '__proto__', 'a']);
  });
});
