import { probit } from 'simple-statistics';

/**
 * The lower end of the Wilson score interval for `passed` successes in `total` trials at a
 * two-sided `confidence` (0.95: 95 %): the pass rate the run supports with that confidence,
 * which unlike the plain rate stays honest for few samples and for 0 or all passing. The normal
 * quantile is simple-statistics' `probit`; no trials bound nothing (0).
 * See https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval
 */
export function wilsonLowerBound(passed: number, total: number, confidence: number): number {
  if (total === 0) return 0;
  const z = probit(1 - (1 - confidence) / 2);
  const rate = passed / total;
  const spread = (z * z) / total;
  const centre = rate + spread / 2;
  const margin = z * Math.sqrt((rate * (1 - rate)) / total + spread / (4 * total));
  return Math.max(0, (centre - margin) / (1 + spread));
}
