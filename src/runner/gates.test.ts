import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../scoring/case-result.js';
import { caseResult } from '../../test/support/case-result.js';
import { evaluateGates, requireEvaluableGates, summarise } from './gates.js';

const result = (
  test_id: string,
  status: CaseResult['status'],
  score: number,
  extra: Partial<CaseResult> = {},
): CaseResult => caseResult(test_id, { status, score, ...extra });

const results = [
  result('a', 'pass', 1, { tags: ['transfer'], tools: ['execute_transfer'] }),
  result('b', 'fail', 0.5, { tags: ['transfer'], tools: ['execute_transfer'] }),
  result('c', 'pass', 1, { tags: ['balance'], tools: ['get_balance'] }),
  result('d', 'error', 0, { tags: ['balance'], tools: ['get_balance'] }),
];

describe('gates', () => {
  it('summarise counts errors apart from fails', () => {
    expect(summarise(results, 'default')).toEqual({
      run: 'default',
      total: 4,
      passed: 2,
      failed: 1,
      errors: 1,
      unreliable: 0,
      counted: 4,
      pass_rate: 0.5,
      mean_score: 0.625,
    });
  });

  it('each gate passes at its threshold and fails below it, saying by how much', () => {
    const verdicts = (gates: Parameters<typeof evaluateGates>[0]) =>
      evaluateGates(gates, results, ['default'], undefined).map((gate) => [
        gate.gate,
        gate.subject,
        gate.pass,
        gate.message,
      ]);
    expect(verdicts({ pass_rate: 0.5, mean_score: 0.625 })).toEqual([
      ['pass_rate', null, true, '50% (2/4 cases passed); at least 50%'],
      ['mean_score', null, true, '0.625 (mean score 0.625); at least 0.625'],
    ]);
    expect(verdicts({ pass_rate: 0.75, mean_score: 0.7 })).toEqual([
      ['pass_rate', null, false, '50% (2/4 cases passed); needs 75%, short by 25%'],
      ['mean_score', null, false, '0.625 (mean score 0.625); needs 0.7, short by 0.075'],
    ]);
    expect(
      verdicts({
        per_tag: { balance: 0.5, transfer: 1 },
        per_tool: { get_balance: 1, execute_transfer: 0.5 },
      }),
    ).toEqual([
      ['per_tag', 'balance', true, '50% (1/2 cases passed); at least 50%'],
      ['per_tag', 'transfer', false, '50% (1/2 cases passed); needs 100%, short by 50%'],
      ['per_tool', 'get_balance', false, '50% (1/2 cases passed); needs 100%, short by 50%'],
      ['per_tool', 'execute_transfer', true, '50% (1/2 cases passed); at least 50%'],
    ]);
  });

  it('a per-tag or per-tool gate naming nothing fails, and no gates means every case must pass', () => {
    expect(
      evaluateGates({ per_tag: { tranfser: 1 } }, results, ['default'], undefined)[0],
    ).toMatchObject({ pass: false, message: 'no case carries the tag tranfser' });
    expect(evaluateGates({}, results, ['default'], undefined)).toMatchObject([
      { gate: 'pass_rate', threshold: 1, pass: false },
    ]);
    expect(evaluateGates({}, [result('a', 'pass', 1)], ['default'], undefined)).toMatchObject([
      { gate: 'pass_rate', pass: true },
    ]);
  });

  it('issue 31: with an unreliable case the summary said 100% while the gate said 0% — one number, one rule', () => {
    const alone = [result('a', 'unreliable', 1)];
    const [gate] = evaluateGates({}, alone, ['default'], undefined);
    expect(gate).toMatchObject({ gate: 'pass_rate', actual: 0, pass: false });
    expect(summarise(alone, 'default')).toMatchObject({ pass_rate: 0, mean_score: 0 });
    expect(summarise(alone, 'default', 'ignore')).toMatchObject({ pass_rate: 1, counted: 0 });
    const [ignored] = evaluateGates({ unreliable: 'ignore' }, alone, ['default'], undefined);
    expect(ignored?.actual).toBe(1);
  });

  it('the summary and the gates give the same pass rate and mean score under either rule (property)', () => {
    const statuses = ['pass', 'fail', 'error', 'unreliable'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom(...statuses), fc.double({ min: 0, max: 1, noNaN: true })),
        ),
        fc.constantFrom('fail' as const, 'ignore' as const),
        (drawn, unreliable) => {
          const cases = drawn.map(([status, score], index) => result(`c${index}`, status, score));
          const summary = summarise(cases, 'default', unreliable);
          const gates = evaluateGates(
            { pass_rate: 0, mean_score: 0, unreliable },
            cases,
            ['default'],
            undefined,
          );
          expect(gates.map((gate) => gate.actual)).toEqual([summary.pass_rate, summary.mean_score]);
        },
      ),
    );
  });

  it('an unreliable case is neither pass nor fail: counted by the summary and the gates as `unreliable` says', () => {
    const mixed = [
      ...results,
      result('e', 'unreliable', 1, { tags: ['transfer'], tools: ['execute_transfer'] }),
    ];
    expect(summarise(mixed, 'default')).toMatchObject({
      total: 5,
      passed: 2,
      failed: 1,
      errors: 1,
      unreliable: 1,
      counted: 5,
      pass_rate: 0.4,
      mean_score: 0.5,
    });
    expect(summarise(mixed, 'default', 'ignore')).toMatchObject({
      counted: 4,
      pass_rate: 0.5,
      mean_score: 0.625,
    });
    // The default counts it as failing: a gate never passes because a tool went missing.
    expect(evaluateGates({ pass_rate: 0.5 }, mixed, ['default'], undefined)[0]).toMatchObject({
      pass: false,
      actual: 0.4,
      message: '40% (2/5 cases passed; 1 unreliable counted as failing); needs 50%, short by 10%',
    });
    expect(
      evaluateGates(
        { pass_rate: 0.5, mean_score: 0.6, unreliable: 'ignore' },
        mixed,
        ['default'],
        undefined,
      ),
    ).toMatchObject([
      {
        gate: 'pass_rate',
        pass: true,
        actual: 0.5,
        message: '50% (2/4 cases passed; 1 unreliable left out); at least 50%',
      },
      { gate: 'mean_score', pass: true, actual: 0.625 },
    ]);
    expect(
      evaluateGates(
        { per_tag: { transfer: 0.5 }, unreliable: 'ignore' },
        mixed,
        ['default'],
        undefined,
      )[0],
    ).toMatchObject({ pass: true, message: '50% (1/2 cases passed); at least 50%' });
    expect(
      evaluateGates({ per_tag: { transfer: 0.5 } }, mixed, ['default'], undefined)[0],
    ).toMatchObject({
      pass: false,
      message: '33.3% (1/3 cases passed); needs 50%, short by 16.7%',
    });
    // `unreliable` alone declares no threshold: every counted case must still pass.
    expect(
      evaluateGates(
        { unreliable: 'ignore' },
        [result('a', 'pass', 1), result('b', 'unreliable', 0)],
        ['default'],
        undefined,
      ),
    ).toMatchObject([{ gate: 'pass_rate', threshold: 1, pass: true }]);
  });

  it('max_regression compares with the baseline run of the same name', () => {
    expect(
      evaluateGates(
        { max_regression: 0.25 },
        results,
        ['default'],
        new Map([['default', 0.75]]),
      )[0],
    ).toMatchObject({ pass: true, actual: 0.25 });
    expect(
      evaluateGates({ max_regression: 0.2 }, results, ['default'], new Map([['default', 0.75]]))[0],
    ).toMatchObject({ pass: false, message: 'pass rate 75% → 50% (−25%; at most −20% allowed)' });
  });

  it('a max_regression gate that cannot be evaluated is a configuration error, never a silent pass', () => {
    expect(() =>
      requireEvaluableGates('suite.yaml', { max_regression: 0.2 }, ['default'], undefined),
    ).toThrow('suite.yaml: gates.max_regression: needs a baseline');
    expect(() =>
      requireEvaluableGates(
        'suite.yaml',
        { max_regression: 0.2 },
        ['default', 'large'],
        new Map([['default', 1]]),
      ),
    ).toThrow('the baseline has no run "large" (it has "default")');
    expect(() =>
      requireEvaluableGates(
        'suite.yaml',
        { max_regression: 0.2 },
        ['default'],
        new Map([['default', 1]]),
      ),
    ).not.toThrow();
    expect(() =>
      requireEvaluableGates('suite.yaml', { pass_rate: 1 }, ['default'], undefined),
    ).not.toThrow();
  });

  it('pass_rate with confidence gates on the Wilson lower bound of the samples, a case without repeats being one sample', () => {
    const repeated = (test_id: string, passed: number, total: number): CaseResult =>
      result(test_id, passed === total ? 'pass' : 'fail', passed / total, {
        samples: {
          passed,
          total,
          flaky: passed > 0 && passed < total,
          min_pass_rate: 1,
          results: [],
        },
      });
    // 9 of 10 samples: the plain rate (90%) would pass; its 95% lower bound (59.6%) does not.
    const nine = [repeated('a', 4, 5), repeated('b', 5, 5)];
    expect(
      evaluateGates({ pass_rate: 0.9, confidence: 0.95 }, nine, ['default'], undefined)[0],
    ).toMatchObject({
      gate: 'pass_rate',
      pass: false,
      actual: 0.595851,
      confidence: 0.95,
      message:
        '59.6% (Wilson lower bound at 95% confidence; 9/10 samples passed); needs 90%, short by 30.4%',
    });
    expect(
      evaluateGates({ pass_rate: 0.59, confidence: 0.95 }, nine, ['default'], undefined)[0]?.pass,
    ).toBe(true);
    // Without repeats every case is one sample: 2 of the 4 cases above pass.
    const halves = evaluateGates(
      { pass_rate: 0.1, confidence: 0.95 },
      results,
      ['default'],
      undefined,
    )[0];
    expect(halves?.pass).toBe(true);
    expect(halves?.actual).toBeCloseTo(0.15004, 4);
    expect(halves?.message).toContain('2/4 samples passed');
  });
});
