import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  averageRanks,
  cohenKappa,
  confusionOf,
  failDetection,
  kendallTauB,
  spearman,
} from './agreement.js';

/** `count` copies of a pair of labels. */
function pairs(count: number, first: string, second: string): [string, string][] {
  return Array.from({ length: count }, () => [first, second]);
}

describe("Cohen's kappa", () => {
  it('matches the worked example of Wikipedia "Cohen\'s kappa" (50 applications: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → p_o 0.7, p_e 0.5, κ 0.4)', () => {
    const items = [
      ...pairs(20, 'yes', 'yes'),
      ...pairs(5, 'yes', 'no'),
      ...pairs(10, 'no', 'yes'),
      ...pairs(15, 'no', 'no'),
    ];
    expect(
      cohenKappa(
        items.map(([a]) => a),
        items.map(([, b]) => b),
      ),
    ).toBeCloseTo(0.4, 12);
  });

  it('matches the second Wikipedia example with similar marginals (45/15/25/15 → κ 0.1304)', () => {
    const items = [
      ...pairs(45, 'yes', 'yes'),
      ...pairs(15, 'yes', 'no'),
      ...pairs(25, 'no', 'yes'),
      ...pairs(15, 'no', 'no'),
    ];
    expect(
      cohenKappa(
        items.map(([a]) => a),
        items.map(([, b]) => b),
      ),
    ).toBeCloseTo(0.1304, 4);
  });

  const labels = fc.array(fc.boolean(), { minLength: 1, maxLength: 60 });
  it('is 1 on identical labels', () => {
    fc.assert(fc.property(labels, (values) => cohenKappa(values, values) === 1));
  });
  it('is symmetric', () => {
    fc.assert(
      fc.property(
        labels,
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        (values, other) =>
          Math.abs(
            cohenKappa(values, other.slice(0, values.length)) -
              cohenKappa(other.slice(0, values.length), values),
          ) < 1e-12,
      ),
    );
  });
  it('is 0 when one rater agrees only by chance (labels independent by construction)', () => {
    // Every combination equally often: the observed agreement is exactly the chance agreement.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        (passes, fails) => {
          const first = [
            ...Array<boolean>(passes).fill(true),
            ...Array<boolean>(fails).fill(false),
          ];
          const second = first.flatMap(() => first);
          return (
            Math.abs(
              cohenKappa(
                first.flatMap((value) => first.map(() => value)),
                second,
              ),
            ) < 1e-12
          );
        },
      ),
    );
  });
  it('lies in [-1, 1]', () => {
    fc.assert(
      fc.property(
        labels,
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        (values, other) => {
          const kappa = cohenKappa(values, other.slice(0, values.length));
          return kappa >= -1 - 1e-12 && kappa <= 1 + 1e-12;
        },
      ),
    );
  });
});

describe('precision and recall of catching a fail', () => {
  it('matches the worked example of Wikipedia "Precision and recall" (8 flagged, 5 right, 12 real: precision 5/8, recall 5/12)', () => {
    // Positive = fail: 12 real fails, the judge flags 8 runs of which 5 are real fails; 10 passes.
    const truth = [...Array<boolean>(12).fill(false), ...Array<boolean>(10).fill(true)];
    const judged = [
      ...Array<boolean>(5).fill(false),
      ...Array<boolean>(7).fill(true),
      ...Array<boolean>(3).fill(false),
      ...Array<boolean>(7).fill(true),
    ];
    const confusion = confusionOf(truth, judged);
    expect(confusion).toEqual({
      truePositive: 5,
      falsePositive: 3,
      falseNegative: 7,
      trueNegative: 7,
    });
    const detection = failDetection(confusion);
    expect(detection.precision).toBeCloseTo(5 / 8, 12);
    expect(detection.recall).toBeCloseTo(5 / 12, 12);
    expect(detection.f1).toBeCloseTo((2 * (5 / 8) * (5 / 12)) / (5 / 8 + 5 / 12), 12);
  });
  it('gives F1 0, not blank, to a judge that never says fail when there were fails (regression: the report left it empty)', () => {
    expect(failDetection(confusionOf([false, true, false], [true, true, true]))).toEqual({
      precision: null,
      recall: 0,
      f1: 0,
    });
  });
  it('says null rather than dividing by zero', () => {
    expect(failDetection(confusionOf([true, true], [true, true]))).toEqual({
      precision: null,
      recall: null,
      f1: null,
    });
  });
});

describe('rank correlations', () => {
  it('Spearman matches the worked example of Wikipedia "Spearman\'s rank correlation coefficient" (IQ against hours of TV: ρ = −29/165)', () => {
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 12);
  });
  it('Kendall τ-b matches the example of the SciPy reference for scipy.stats.kendalltau (x1 = [12, 2, 1, 12, 2], x2 = [1, 4, 7, 1, 0] → −0.47140452079103173)', () => {
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 12);
  });
  it('averages the ranks of ties', () => {
    expect(averageRanks([10, 20, 10, 30])).toEqual([1.5, 3, 1.5, 4]);
  });
  it('are 1 for any strictly increasing relation, symmetric, and undefined for a constant side', () => {
    const distinct = fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), {
      minLength: 2,
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        distinct,
        (values) =>
          Math.abs(
            (spearman(
              values,
              values.map((value) => value * 3 + 1),
            ) ?? 0) - 1,
          ) < 1e-12 &&
          Math.abs(
            (kendallTauB(
              values,
              values.map((value) => value ** 3),
            ) ?? 0) - 1,
          ) < 1e-12,
      ),
    );
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 2, maxLength: 20 }),
        fc.array(fc.integer(), { minLength: 20, maxLength: 20 }),
        (values, other) => {
          const right = other.slice(0, values.length);
          return (
            kendallTauB(values, right) === kendallTauB(right, values) &&
            spearman(values, right) === spearman(right, values)
          );
        },
      ),
    );
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
  });
});
