import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreAgentCalls } from './score-agent-calls.js';
import { scoreCall } from './score-call.js';
import type { ActualCall, TestCase } from './types.js';

const refund: TestCase = {
  expected_tool: 'issue_refund',
  arguments: { order_id: 'A-17' },
  multiple_calls: 'best',
};
const lookup: ActualCall = { name: 'get_order', arguments: '{"order_id":"A-17"}' };
const refunded: ActualCall = {
  name: 'issue_refund',
  arguments: '{"order_id":"A-17","reason":"arrived broken"}',
};
const email: ActualCall = { name: 'send_email', arguments: '{"to":"ada@example.com"}' };
const schemas = {
  issue_refund: {
    type: 'object',
    properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
  },
};

describe('issue 31: agent mode judged the expected call against whichever call came first', () => {
  it('judges issue_refund against the call to issue_refund, not the lookup before it', () => {
    // Direct mode's scoring, for contrast: the first call is a different tool.
    expect(scoreCall({ ...refund, multiple_calls: 'first' }, [lookup, refunded]).reasons).toEqual([
      'wrong_tool',
    ]);
    expect(scoreAgentCalls(refund, [lookup, refunded, email], { schemas })).toMatchObject({
      is_correct: true,
      score: 1,
      reasons: [],
      details: { assignment: [1], extra_calls: 0 },
    });
  });

  it('takes the best of several calls to the tool, and names the real cause when none is right', () => {
    const wrongOrder: ActualCall = { name: 'issue_refund', arguments: '{"order_id":"B-2"}' };
    expect(scoreAgentCalls(refund, [wrongOrder, lookup, refunded], { schemas })).toMatchObject({
      is_correct: true,
      details: { assignment: [2] },
    });
    expect(scoreAgentCalls(refund, [lookup, wrongOrder], { schemas })).toMatchObject({
      is_correct: false,
      reasons: ['value_mismatch'],
      mismatches: { order_id: { expected: 'A-17', actual: 'B-2' } },
    });
  });

  it('says the expected tool was never called, and what was, when no call names it', () => {
    expect(scoreAgentCalls(refund, [lookup, email, lookup], { schemas })).toMatchObject({
      is_correct: false,
      reasons: ['wrong_tool'],
      error_message: 'the agent never called issue_refund (it called get_order, send_email)',
    });
    expect(scoreAgentCalls(refund, [], { schemas }).reasons).toEqual(['missing_tool_call']);
  });

  it('keeps a negative case seeing every call, and a case that sets multiple_calls its policy', () => {
    expect(scoreAgentCalls({ expected_tool: null }, [lookup], {}).reasons).toEqual(['extra_call']);
    const strict: TestCase = { ...refund, multiple_calls: 'all' };
    const twice = [refunded, lookup, { name: 'issue_refund', arguments: '{"order_id":"B-2"}' }];
    expect(scoreAgentCalls(strict, twice, { schemas }).is_correct).toBe(false);
  });

  it('calls to other tools never change the score (property)', () => {
    const other = fc.record({
      name: fc.constantFrom('get_order', 'send_email', 'search'),
      arguments: fc.constantFrom('{}', '{"x":1}', 'not json'),
    });
    fc.assert(
      fc.property(fc.array(other, { maxLength: 4 }), fc.nat(4), (others, at) => {
        const calls: ActualCall[] = [...others];
        calls.splice(Math.min(at, calls.length), 0, refunded);
        const { details, ...rest } = scoreAgentCalls(refund, calls, { schemas });
        const { details: alone, ...expected } = scoreAgentCalls(refund, [refunded], { schemas });
        expect(rest).toEqual(expected);
        expect(details.extra_calls).toBe(alone.extra_calls);
      }),
    );
  });
});
