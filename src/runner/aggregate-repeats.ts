import { aggregateSamples, samplesDisagree } from '../judges/aggregate-samples.js';
import type { CaseResult, SampleResult } from '../scoring/case-result.js';
import { pct } from '../report/pct.js';

/**
 * One case's result from its samples (sample 1 first), the way a judge's samples make one
 * verdict: an errored sample makes the case an error (the cassette or upstream could not answer
 * it, which says nothing of the model), else an unreliable one makes it unreliable; otherwise
 * the case passes when at least `minPassRate` of its samples passed. Samples that disagree mark
 * the case flaky. One sample is returned as it is.
 */
export function aggregateRepeats(samples: readonly CaseResult[], minPassRate: number): CaseResult {
  const [first] = samples;
  if (first === undefined) throw new RangeError('aggregateRepeats: a case has at least one sample');
  if (samples.length === 1) return first;
  const verdicts = samples.filter((sample) => sample.status === 'pass' || sample.status === 'fail');
  const status: CaseResult['status'] = samples.some((sample) => sample.status === 'error')
    ? 'error'
    : samples.some((sample) => sample.status === 'unreliable')
      ? 'unreliable'
      : aggregateSamples(
            verdicts.map((sample) => ({ pass: sample.status === 'pass' })),
            'mean',
            minPassRate,
          ).pass
        ? 'pass'
        : 'fail';
  // The sample a reader of the verdict wants to see: one that agrees with it.
  const shown = samples.find((sample) => sample.status === status) ?? first;
  const sum = (value: (sample: CaseResult) => number): number =>
    samples.reduce((total, sample) => total + value(sample), 0);
  const passed = samples.filter((sample) => sample.status === 'pass').length;
  return {
    ...shown,
    status,
    problems:
      status === 'fail'
        ? [
            `${passed}/${samples.length} samples passed; at least ${pct(minPassRate)} must`,
            ...shown.problems,
          ]
        : shown.problems,
    // An error is scored 0, a repeated case's as a single one's.
    score:
      status === 'error'
        ? 0
        : Math.round((sum((sample) => sample.score) / samples.length) * 1e6) / 1e6,
    duration_ms: sum((sample) => sample.duration_ms),
    tokens: {
      input: sum((sample) => sample.tokens.input),
      output: sum((sample) => sample.tokens.output),
    },
    samples: {
      passed,
      total: samples.length,
      flaky: samplesDisagree(verdicts.map((sample) => sample.status === 'pass')),
      min_pass_rate: minPassRate,
      results: samples.map((sample, index) => sampleResult(sample, index + 1)),
    },
  };
}

function sampleResult(sample: CaseResult, ordinal: number): SampleResult {
  return {
    sample: ordinal,
    session: sample.session,
    status: sample.status,
    score: sample.score,
    calls: sample.calls,
    problems: sample.problems,
    error: sample.error,
    duration_ms: sample.duration_ms,
    rounds: sample.rounds,
    tokens: sample.tokens,
  };
}
