import type { SampleAggregate } from './judge-definition.js';

/** A sample's verdict and score (defaulting to 1 for pass, 0 for fail). */
export interface Sample {
  readonly pass: boolean;
  readonly score?: number;
}

/**
 * One verdict from several samples: `majority` (a tie is a fail: the safer call for a gate),
 * `all` (every sample passed), `any` (one did), `mean` (mean score ≥ threshold).
 */
export function aggregateSamples(
  samples: readonly Sample[],
  aggregate: SampleAggregate,
  passThreshold: number,
): { readonly pass: boolean; readonly score: number } {
  const scores = samples.map((sample) => sample.score ?? (sample.pass ? 1 : 0));
  const score = scores.reduce((sum, value) => sum + value, 0) / Math.max(1, scores.length);
  const passes = samples.filter((sample) => sample.pass).length;
  switch (aggregate) {
    case 'majority':
      return { pass: passes * 2 > samples.length, score };
    case 'all':
      return { pass: samples.length > 0 && passes === samples.length, score };
    case 'any':
      return { pass: passes > 0, score };
    case 'mean':
      return { pass: samples.length > 0 && score >= passThreshold, score };
  }
}

/** Samples disagreed: the judge is flaky on this run. */
export function samplesDisagree(samples: readonly boolean[]): boolean {
  return samples.some((sample) => sample !== samples[0]);
}
