import { pct } from './pct.js';
import type { ArgumentChange, CaseBehaviourChange, Moved, RunBaseline } from './run-baseline.js';

/** One row of the "what changed" table, cells as plain text (each reporter escapes them its way). */
export interface BehaviourRow {
  readonly name: string;
  readonly verdict: string;
  readonly calls: string;
  /** One line per changed argument. */
  readonly arguments: readonly string[];
  readonly steps: string;
  readonly rounds: string;
  readonly pass_rate: string;
}

/** The table's column titles, in the order of `behaviourCells`. */
export const behaviourColumns = [
  'case',
  'verdict',
  'calls',
  'arguments',
  'steps',
  'rounds',
  'pass rate',
] as const;

/** `get_weather unit: "celsius" → "fahrenheit"` (`get_weather#2` from the second call of a tool on). */
export function argumentText(change: ArgumentChange): string {
  const call = change.occurrence > 0 ? `${change.tool}#${change.occurrence + 1}` : change.tool;
  return `${call}${change.path ? ` ${change.path}` : ' arguments'}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`;
}

/** What a report says above the table: which run, and how the pass rates moved. */
export function baselineHeadline(baseline: RunBaseline): string {
  const facts = [
    baseline.kind === 'recorded' ? 'the run that last recorded the cassette' : undefined,
    baseline.branch ?? undefined,
    baseline.commit ? baseline.commit.slice(0, 12) : undefined,
    baseline.started_at ?? undefined,
  ].filter((fact): fact is string => fact !== undefined);
  const rates = baseline.diff.pass_rates
    .map(
      (move) =>
        `${baseline.diff.pass_rates.length > 1 ? `${move.run} ` : ''}${pct(move.before)} → ${pct(move.after)}`,
    )
    .join(', ');
  const { diff } = baseline;
  const sides = [
    diff.only_in_baseline.length > 0
      ? `only in the baseline: ${diff.only_in_baseline.join(', ')}`
      : '',
    diff.only_in_run.length > 0 ? `new: ${diff.only_in_run.join(', ')}` : '',
  ].filter(Boolean);
  return `Compared with ${baseline.label}${facts.length > 0 ? ` (${facts.join(' · ')})` : ''}: pass rate ${rates || 'not comparable'}; ${diff.cases.length} case(s) changed, ${diff.unchanged} unchanged${sides.length > 0 ? `; ${sides.join('; ')}` : ''}`;
}

/** The changed cases as table rows. */
export function behaviourRows(baseline: RunBaseline, severalRuns: boolean): BehaviourRow[] {
  return baseline.diff.cases.map((change) => ({
    name: severalRuns ? `${change.run}/${change.test_id}` : change.test_id,
    verdict: change.verdict
      ? `${change.verdict.before} → ${change.verdict.after}${change.verdict.kind === 'other' ? '' : ` (${change.verdict.kind})`}`
      : '',
    calls: callsText(change),
    arguments: change.arguments.map(argumentText),
    steps: moved(change.steps, String),
    rounds: moved(change.rounds, String),
    pass_rate: moved(change.pass_rate, pct),
  }));
}

/** A row's cells in column order, the arguments joined by `separator`. */
export function behaviourCells(row: BehaviourRow, separator: string): string[] {
  return [
    row.name,
    row.verdict,
    row.calls,
    row.arguments.join(separator),
    row.steps,
    row.rounds,
    row.pass_rate,
  ];
}

/** A case's change in one line, for reports that list cases (JUnit): its first difference. */
export function caseChangeOf(
  baseline: RunBaseline | undefined,
  run: string,
  testId: string,
): CaseBehaviourChange | undefined {
  return baseline?.diff.cases.find((change) => change.run === run && change.test_id === testId);
}

function callsText(change: CaseBehaviourChange): string {
  return [
    ...change.calls_added.map((tool) => `+${tool}`),
    ...change.calls_removed.map((tool) => `−${tool}`),
  ].join(' ');
}

function moved(value: Moved | null, show: (number: number) => string): string {
  return value ? `${show(value.before)} → ${show(value.after)}` : '';
}
