import { errorFunction, probit } from 'simple-statistics';

/**
 * The lower end of the Wilson score interval for `passed` successes in `total` trials at a
 * two-sided `confidence` (0.95: 95 %): the pass rate the run supports with that confidence,
 * which unlike the plain rate stays honest for few samples and for 0 or all passing. No trials
 * bound nothing (0).
 * See https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval
 */
export function wilsonLowerBound(passed: number, total: number, confidence: number): number {
  if (total === 0) return 0;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const rate = passed / total;
  const spread = (z * z) / total;
  const centre = rate + spread / 2;
  const margin = z * Math.sqrt((rate * (1 - rate)) / total + spread / (4 * total));
  return Math.max(0, (centre - margin) / (1 + spread));
}

/**
 * simple-statistics' `probit` is a closed-form approximation off by up to 0.003 at 97.5 %
 * (1.9572 for 1.9600), which moves a bound by 0.0005; one Newton step on its `errorFunction`
 * (accurate to about 1e-7) brings it within 1e-5.
 */
function normalQuantile(probability: number): number {
  const guess = probit(probability);
  const cumulative = (1 + errorFunction(guess / Math.SQRT2)) / 2;
  const density = Math.exp((-guess * guess) / 2) / Math.sqrt(2 * Math.PI);
  return guess - (cumulative - probability) / density;
}
