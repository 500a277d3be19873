import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseResult, ConversationResult } from '../scoring/case-result.js';
import { caseResult } from '../../test/support/case-result.js';
import { aggregateRepeats } from './aggregate-repeats.js';

const statuses = ['pass', 'fail', 'error', 'unreliable'] as const;
const samplesOf = (...verdicts: CaseResult['status'][]): CaseResult[] =>
  verdicts.map((status, index) =>
    caseResult('refund', {
      status,
      score: status === 'pass' ? 1 : 0.5,
      session: index === 0 ? 'refund' : `refund#${index + 1}`,
      problems: status === 'pass' ? [] : [`sample ${index + 1} went wrong`],
      duration_ms: 10,
      tokens: { input: 3, output: 2 },
    }),
  );

describe('aggregateRepeats', () => {
  it('pass, fail, pass: 2/3 passed and flaky; min_pass_rate decides the verdict', () => {
    const strict = aggregateRepeats(samplesOf('pass', 'fail', 'pass'), 1);
    expect(strict.status).toBe('fail');
    expect(strict.samples).toMatchObject({ passed: 2, total: 3, flaky: true, min_pass_rate: 1 });
    // The failing sample is the one shown, with the tally first.
    expect(strict.session).toBe('refund#2');
    expect(strict.problems).toEqual([
      '2/3 samples passed; at least 100% must',
      'sample 2 went wrong',
    ]);
    const lenient = aggregateRepeats(samplesOf('pass', 'fail', 'pass'), 0.6);
    expect(lenient.status).toBe('pass');
    expect(lenient.session).toBe('refund');
    expect(lenient.problems).toEqual([]);
    expect(lenient.score).toBeCloseTo(5 / 6, 6);
    expect(lenient.duration_ms).toBe(30);
    expect(lenient.tokens).toEqual({ input: 9, output: 6 });
    expect(lenient.samples?.results.map((sample) => [sample.sample, sample.session])).toEqual([
      [1, 'refund'],
      [2, 'refund#2'],
      [3, 'refund#3'],
    ]);
  });

  it("a conversation case keeps each sample's turns, and shows those of the sample it reports", () => {
    const conversation = (turnStatus: CaseResult['status']): ConversationResult => ({
      turns: [
        {
          turn: 1,
          user: 'hi',
          reply: null,
          calls: [],
          rounds: 1,
          status: turnStatus,
          score: turnStatus === 'pass' ? 1 : 0,
          call: null,
          trajectory: null,
          problems: [],
        },
      ],
      ended_by: 'script',
      ended_reason: null,
      mean_turn_score: turnStatus === 'pass' ? 1 : 0,
      all_turns_pass: turnStatus === 'pass',
    });
    const samples = samplesOf('pass', 'fail').map((sample) => ({
      ...sample,
      conversation: conversation(sample.status),
    }));
    const result = aggregateRepeats(samples, 1);
    expect(result.conversation?.turns[0]?.status).toBe('fail');
    expect(result.samples?.results.map((sample) => sample.conversation?.all_turns_pass)).toEqual([
      true,
      false,
    ]);
  });

  it('one errored sample makes the case an error, not a fail', () => {
    const result = aggregateRepeats(samplesOf('pass', 'error', 'pass'), 0.5);
    expect(result.status).toBe('error');
    // Scored 0 like any error (regression: a repeated error showed 0.200).
    expect(result.score).toBe(0);
    expect(result.samples?.flaky).toBe(false);
  });

  it('a single sample is returned as it is (a suite without repeats reports as before)', () => {
    const [only] = samplesOf('fail');
    expect(aggregateRepeats([only as CaseResult], 1)).toBe(only);
  });

  it('agrees with counting: pass iff passed/total ≥ min_pass_rate; flaky iff both verdicts occur', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...statuses), { minLength: 2, maxLength: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (verdicts, minPassRate) => {
          const result = aggregateRepeats(samplesOf(...verdicts), minPassRate);
          const passed = verdicts.filter((status) => status === 'pass').length;
          expect(result.samples?.passed).toBe(passed);
          expect(result.samples?.total).toBe(verdicts.length);
          expect(result.samples?.flaky).toBe(
            verdicts.includes('pass') && verdicts.includes('fail'),
          );
          const expected = verdicts.includes('error')
            ? 'error'
            : verdicts.includes('unreliable')
              ? 'unreliable'
              : passed / verdicts.length >= minPassRate
                ? 'pass'
                : 'fail';
          expect(result.status).toBe(expected);
          // The shown sample agrees with the verdict.
          const shown = result.samples?.results.find((sample) => sample.session === result.session);
          expect(shown?.status).toBe(expected);
        },
      ),
    );
  });
});
