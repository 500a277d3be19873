import { CalltapeError } from '../errors.js';
import type { CaseResult } from '../scoring/case-result.js';
import type { Gates, Price } from '../scoring/suite-types.js';
import { pct } from '../report/pct.js';
import { wilsonLowerBound } from './wilson-lower-bound.js';
import type { ConfigurationSummary, GateResult, RunSummary } from '../report/run-result.js';

export type { GateResult, RunSummary } from '../report/run-result.js';

/** How unreliable cases count: as failing, score 0 (the default), or left out (`gates.unreliable`). */
export type UnreliableRule = NonNullable<Gates['unreliable']>;

/**
 * A run's pass rate and mean score, by the one rule the summary table and the gates share: an
 * unreliable case (its expected tool was not offered) counts as failing with score 0, or under
 * `unreliable: ignore` is left out.
 */
export function runRates(
  results: readonly CaseResult[],
  run: string,
  unreliable: UnreliableRule,
): {
  readonly counted: number;
  readonly passed: number;
  readonly pass_rate: number;
  readonly mean_score: number;
} {
  const counted = results.filter(
    (result) => result.run === run && (unreliable === 'fail' || result.status !== 'unreliable'),
  );
  const passed = counted.filter((result) => result.status === 'pass').length;
  return {
    counted: counted.length,
    passed,
    pass_rate: rate(passed, counted.length),
    mean_score: meanScore(
      counted.map((result) => (result.status === 'unreliable' ? { score: 0 } : result)),
    ),
  };
}

/** A configuration's counts; pass rate and mean score count unreliable cases as `runRates` says. */
export function summarise(
  results: readonly CaseResult[],
  run: string,
  unreliable: UnreliableRule = 'fail',
): RunSummary {
  const own = results.filter((result) => result.run === run);
  const reliable = own.filter((result) => result.status !== 'unreliable');
  const passed = own.filter((result) => result.status === 'pass').length;
  const errors = own.filter((result) => result.status === 'error').length;
  const rates = runRates(results, run, unreliable);
  return {
    run,
    total: own.length,
    passed,
    failed: reliable.length - passed - errors,
    errors,
    unreliable: own.length - reliable.length,
    counted: rates.counted,
    pass_rate: rates.pass_rate,
    mean_score: rates.mean_score,
  };
}

/** A report's row for a run configuration: its summary, its model and the tools its cases offered the model (first offer first). */
export function summariseConfiguration(
  results: readonly CaseResult[],
  run: string,
  model: string | null,
  price: Price | null,
  unreliable: UnreliableRule = 'fail',
): ConfigurationSummary {
  const offered = [
    ...new Set(
      results
        .filter((result) => result.run === run)
        .flatMap((result) => result.tools_offered ?? []),
    ),
  ];
  return { ...summarise(results, run, unreliable), model, tools_offered: offered, price };
}

/**
 * Fails (exit 2) before anything runs when a declared gate could not be evaluated: a
 * `max_regression` gate needs a baseline, and one holding every run configuration of the suite.
 * A gate that cannot be evaluated must never pass silently.
 */
export function requireEvaluableGates(
  file: string,
  gates: Gates,
  runs: readonly string[],
  baseline: ReadonlyMap<string, number> | undefined,
): void {
  if (gates.max_regression === undefined) return;
  if (!baseline)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: gates.max_regression: needs a baseline to compare with, and none was given`,
      'Pass --baseline <run id or JSON report> (an earlier run of this suite), or remove the gate.',
    );
  const absent = runs.filter((run) => !baseline.has(run));
  if (absent.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: gates.max_regression: the baseline has no run ${absent.map((run) => `"${run}"`).join(', ')} (it has ${[...baseline.keys()].map((run) => `"${run}"`).join(', ') || 'none'})`,
      'Use a baseline from a run of this suite.',
    );
}

/**
 * Evaluates the suite's gates for every run configuration. With no gates declared, every case
 * must pass (pass_rate 1): a suite without gates still fails the build on a failing case. A
 * per-tag or per-tool gate that matches no case fails — a typo must not pass silently.
 * `max_regression` compares pass rates with the baseline run of the same name.
 */
export function evaluateGates(
  gates: Gates,
  results: readonly CaseResult[],
  runs: readonly string[],
  baseline: ReadonlyMap<string, number> | undefined,
): GateResult[] {
  const { unreliable = 'fail', ...thresholds } = gates;
  const declared: Gates = Object.keys(thresholds).length > 0 ? thresholds : { pass_rate: 1 };
  const outcomes: GateResult[] = [];
  for (const run of runs) {
    // `unreliable: fail` counts a case not offered its tool as a failure; `ignore` leaves it out.
    const own = results.filter(
      (result) => result.run === run && (unreliable === 'fail' || result.status !== 'unreliable'),
    );
    const summary = summarise(results, run, unreliable);
    const { passed } = summary;
    const apart = own.filter((result) => result.status === 'unreliable').length;
    const note =
      apart > 0
        ? `; ${apart} unreliable counted as failing`
        : (summary.unreliable ?? 0) > 0
          ? `; ${summary.unreliable ?? 0} unreliable left out`
          : '';
    if (declared.pass_rate !== undefined && declared.confidence !== undefined)
      outcomes.push(boundGate(run, declared.pass_rate, declared.confidence, own, note));
    else if (declared.pass_rate !== undefined)
      outcomes.push(
        atLeast(
          'pass_rate',
          run,
          null,
          declared.pass_rate,
          summary.pass_rate,
          `${passed}/${own.length} cases passed${note}`,
        ),
      );
    if (declared.mean_score !== undefined) {
      const mean = summary.mean_score;
      outcomes.push(
        atLeast('mean_score', run, null, declared.mean_score, mean, `mean score ${mean}${note}`),
      );
    }
    for (const [tag, threshold] of Object.entries(declared.per_tag ?? {}))
      outcomes.push(
        subsetGate(
          'per_tag',
          run,
          tag,
          threshold,
          own.filter((result) => result.tags.includes(tag)),
        ),
      );
    for (const [tool, threshold] of Object.entries(declared.per_tool ?? {}))
      outcomes.push(
        subsetGate(
          'per_tool',
          run,
          tool,
          threshold,
          own.filter((result) => result.tools.includes(tool)),
        ),
      );
    if (declared.max_regression !== undefined) {
      const before = baseline?.get(run);
      if (before === undefined)
        outcomes.push({
          gate: 'max_regression',
          run,
          subject: null,
          threshold: declared.max_regression,
          actual: null,
          pass: true,
          message: baseline
            ? `the baseline has no run "${run}"; nothing to compare`
            : 'no --baseline given; nothing to compare',
        });
      else {
        const drop = round(before - summary.pass_rate);
        outcomes.push({
          gate: 'max_regression',
          run,
          subject: null,
          threshold: declared.max_regression,
          actual: drop,
          pass: drop <= declared.max_regression,
          message: `pass rate ${pct(before)} → ${pct(summary.pass_rate)} (${drop > 0 ? `−${pct(drop)}` : 'no drop'}; at most −${pct(declared.max_regression)} allowed)`,
        });
      }
    }
  }
  return outcomes;
}

/**
 * `pass_rate` with `confidence`: the Wilson lower bound of the pass rate, every sample of every
 * case a trial (a case that ran once is one), must reach the threshold.
 */
function boundGate(
  run: string,
  threshold: number,
  confidence: number,
  cases: readonly CaseResult[],
  note: string,
): GateResult {
  const { passed, total } = sampleTally(cases);
  const bound = round(wilsonLowerBound(passed, total, confidence));
  const gate = atLeast(
    'pass_rate',
    run,
    null,
    threshold,
    bound,
    `Wilson lower bound at ${pct(confidence)} confidence; ${passed}/${total} samples passed${note}`,
  );
  return { ...gate, confidence };
}

/** Samples passed and run, over cases; a case without repeats is one sample. */
function sampleTally(cases: readonly CaseResult[]): { passed: number; total: number } {
  let passed = 0;
  let total = 0;
  for (const result of cases) {
    passed += result.samples?.passed ?? (result.status === 'pass' ? 1 : 0);
    total += result.samples?.total ?? 1;
  }
  return { passed, total };
}

function meanScore(cases: readonly { readonly score: number }[]): number {
  return cases.length === 0
    ? 1
    : round(cases.reduce((sum, result) => sum + result.score, 0) / cases.length);
}

function subsetGate(
  gate: 'per_tag' | 'per_tool',
  run: string,
  subject: string,
  threshold: number,
  cases: readonly CaseResult[],
): GateResult {
  if (cases.length === 0)
    return {
      gate,
      run,
      subject,
      threshold,
      actual: null,
      pass: false,
      message: `no case ${gate === 'per_tag' ? 'carries the tag' : 'expects the tool'} ${subject}`,
    };
  const passed = cases.filter((result) => result.status === 'pass').length;
  return atLeast(
    gate,
    run,
    subject,
    threshold,
    rate(passed, cases.length),
    `${passed}/${cases.length} cases passed`,
  );
}

function atLeast(
  gate: GateResult['gate'],
  run: string,
  subject: string | null,
  threshold: number,
  actual: number,
  facts: string,
): GateResult {
  const pass = actual >= threshold;
  const value = gate === 'mean_score' ? String(actual) : pct(actual);
  const wanted = gate === 'mean_score' ? String(threshold) : pct(threshold);
  return {
    gate,
    run,
    subject,
    threshold,
    actual,
    pass,
    message: `${value} (${facts}); ${pass ? 'at least' : 'needs'} ${wanted}${pass ? '' : `, short by ${gate === 'mean_score' ? round(threshold - actual) : pct(threshold - actual)}`}`,
  };
}

function rate(passed: number, total: number): number {
  return total === 0 ? 1 : round(passed / total);
}
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
