import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upgradeCaseResult, upgradeReport } from './upgrade-report.js';

const oldCase = {
  test_id: 'a',
  turns: 2,
  calls: [{ name: 'get_weather', arguments: '{}', mocked: true, turn: 2 }],
  samples: {
    passed: 1,
    total: 1,
    results: [
      { sample: 1, turns: 2, calls: [{ name: 'x', arguments: '{}', mocked: false, turn: 1 }] },
    ],
  },
};

describe('reading reports written before rounds were named rounds', () => {
  it('reads a version 1 report under the new names: cases, calls, samples and the baseline diff', () => {
    expect(
      upgradeReport({
        schema_version: 1,
        cases: [oldCase],
        baseline: {
          kind: 'file',
          diff: { cases: [{ test_id: 'a', turns: { before: 1, after: 2 } }] },
        },
      }),
    ).toEqual({
      schema_version: 2,
      cases: [
        {
          test_id: 'a',
          rounds: 2,
          calls: [{ name: 'get_weather', arguments: '{}', mocked: true, round: 2 }],
          samples: {
            passed: 1,
            total: 1,
            results: [
              {
                sample: 1,
                rounds: 2,
                calls: [{ name: 'x', arguments: '{}', mocked: false, round: 1 }],
              },
            ],
          },
        },
      ],
      baseline: {
        kind: 'file',
        diff: { cases: [{ test_id: 'a', rounds: { before: 1, after: 2 } }] },
      },
    });
  });

  it('leaves new reports and anything that is not a report as they are (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const report =
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? { ...value, schema_version: 2 }
            : value;
        expect(upgradeReport(report)).toBe(report);
      }),
    );
  });

  it('upgrading a case twice is upgrading it once (shard blobs of either age)', () => {
    const once = upgradeCaseResult(oldCase);
    expect(upgradeCaseResult(once)).toEqual(once);
  });
});
