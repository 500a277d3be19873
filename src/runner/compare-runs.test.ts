import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare-runs.js';

describe('compareRuns', () => {
  it('lists regressions, fixes, score changes and cases on one side only', () => {
    const a = {
      label: '#1',
      cases: [
        { test_id: 'x', status: 'pass', score: 1, problem: null },
        { test_id: 'y', status: 'fail', score: 0.5, problem: 'amount: expected 1, got 2' },
        { test_id: 'z', status: 'fail', score: 0.2, problem: 'p' },
        { test_id: 'gone', status: 'pass', score: 1, problem: null },
      ],
    };
    const b = {
      label: '#2',
      cases: [
        { test_id: 'x', status: 'error', score: 0, problem: 'replay miss' },
        { test_id: 'y', status: 'pass', score: 1, problem: null },
        { test_id: 'z', status: 'fail', score: 0.4, problem: 'p' },
        { test_id: 'new', status: 'pass', score: 1, problem: null },
      ],
    };
    expect(compareRuns(a, b)).toEqual({
      a: '#1',
      b: '#2',
      pass_rate: { a: 0.5, b: 0.5 },
      regressions: [
        {
          test_id: 'x',
          from: 'pass',
          to: 'error',
          from_score: 1,
          to_score: 0,
          problem: 'replay miss',
        },
      ],
      fixes: [
        {
          test_id: 'y',
          from: 'fail',
          to: 'pass',
          from_score: 0.5,
          to_score: 1,
          problem: 'amount: expected 1, got 2',
        },
      ],
      score_changes: [
        { test_id: 'z', from: 'fail', to: 'fail', from_score: 0.2, to_score: 0.4, problem: 'p' },
      ],
      unreliable: [],
      only_in_a: ['gone'],
      only_in_b: ['new'],
    });
  });

  it('lists a case unreliable on one side apart: no regression, no fix, and in neither pass rate', () => {
    const a = {
      label: '#1',
      cases: [
        { test_id: 'x', status: 'pass', score: 1, problem: null },
        { test_id: 'y', status: 'unreliable', score: 0, problem: 'search was not offered' },
      ],
    };
    const b = {
      label: '#2',
      cases: [
        { test_id: 'x', status: 'unreliable', score: 0, problem: 'search was not offered' },
        { test_id: 'y', status: 'pass', score: 1, problem: null },
      ],
    };
    const comparison = compareRuns(a, b);
    expect(comparison.regressions).toEqual([]);
    expect(comparison.fixes).toEqual([]);
    expect(comparison.unreliable.map((change) => `${change.from}→${change.to}`)).toEqual([
      'pass→unreliable',
      'unreliable→pass',
    ]);
    expect(comparison.pass_rate).toEqual({ a: 1, b: 1 });
  });
});
