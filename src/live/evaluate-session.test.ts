import { describe, expect, it } from 'vitest';
import { sequence } from '../../test/support/trajectory.js';
import { evaluateSession } from './evaluate-session.js';
import type { SessionPolicy } from './policy-types.js';

describe('evaluateSession', () => {
  const looping = sequence(['get_balance'], ['get_balance'], ['get_balance']);

  it('fails step and loop limits with one failure per limit broken', async () => {
    const policies: SessionPolicy[] = [
      { id: 'budget', kind: 'steps', max_steps: 2, max_repeats: 2, max_turns: 5 },
    ];
    const result = await evaluateSession(policies, looping, { caseId: undefined });
    expect(result.verdict).toBe('fail');
    expect(result.failures.map((failure) => failure.reason)).toEqual([
      'too_many_steps',
      'repeated_call',
    ]);
    expect(result.score).toBeCloseTo(1 / 3);
  });

  it('reports a judge that cannot answer as an error, never as a fail', async () => {
    const policies: SessionPolicy[] = [{ id: 'judge', kind: 'judge', code: '/judge.mjs' }];
    const broken = await evaluateSession(policies, looping, {
      caseId: undefined,
      codeJudge: () => Promise.reject(new Error('timed out after 5000 ms')),
    });
    expect(broken).toMatchObject({
      verdict: 'error',
      failures: [
        {
          policy: 'judge',
          reason: 'judge_error',
          message: 'the judge could not decide: timed out after 5000 ms',
        },
      ],
    });
    const failing = await evaluateSession(policies, looping, {
      caseId: undefined,
      codeJudge: () => Promise.resolve({ pass: false, reason: 'looped' }),
    });
    expect(failing).toMatchObject({
      verdict: 'fail',
      score: 0,
      failures: [{ reason: 'judge_failed', message: 'looped' }],
    });
  });

  it('applies a ground-truth case only to sessions tagged with one', async () => {
    const policies: SessionPolicy[] = [{ id: 'truth', kind: 'cases', suites: ['/suite.yaml'] }];
    const scoreCase = (caseId: string) =>
      Promise.resolve(
        caseId === 'refund-1'
          ? { status: 'fail' as const, score: 0.5, problems: ['amount: expected 20, got 200'] }
          : undefined,
      );
    expect(await evaluateSession(policies, looping, { caseId: undefined, scoreCase })).toEqual({
      evaluated: [],
      failures: [],
      score: 1,
      verdict: 'pass',
    });
    expect(
      await evaluateSession(policies, looping, { caseId: 'refund-1', scoreCase }),
    ).toMatchObject({
      verdict: 'fail',
      evaluated: ['truth'],
      failures: [{ reason: 'case_failed', message: 'case refund-1: amount: expected 20, got 200' }],
    });
  });
});
