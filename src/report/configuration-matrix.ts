import type { CaseResult } from '../scoring/case-result.js';
import { pct } from './pct.js';
import type { ConfigurationSummary, SuiteRunResult } from './run-result.js';

/** One run configuration's column: what it offered, how it did, and what it cost. */
export interface ConfigurationColumn {
  readonly run: string;
  readonly model: string | null;
  /** The tools offered to the model (from the captured requests); null for a report written before they were kept. */
  readonly tools_offered: readonly string[] | null;
  readonly cases: number;
  readonly passed: number;
  readonly unreliable: number;
  /** The cases the pass rate counts. */
  readonly counted: number;
  readonly pass_rate: number;
  readonly mean_score: number;
  /** Verdicts of the cases' judges (LLM and code judge checks), counted over the configuration's cases. */
  readonly judge: { readonly pass: number; readonly fail: number; readonly error: number };
  readonly tokens: { readonly input: number; readonly output: number };
  /** US dollars from the tokens and the suite's `price` for the configuration; null without a price. */
  readonly cost_usd: number | null;
  /** Mean wall time of a case, milliseconds. */
  readonly mean_latency_ms: number;
}

/** A tool or tag, and each configuration's pass count for it (null when no case of that configuration has it). */
export interface MatrixRow {
  readonly group: string;
  readonly cells: readonly ({
    readonly passed: number;
    readonly total: number;
    readonly pass_rate: number;
  } | null)[];
}

/** Run configurations side by side: one column each, rows per expected tool and per tag. */
export interface ConfigurationMatrix {
  readonly columns: readonly ConfigurationColumn[];
  readonly by_tool: readonly MatrixRow[];
  readonly by_tag: readonly MatrixRow[];
}

/**
 * Puts a run's configurations side by side, so "which model, prompt and tool set for this task"
 * is one table. Unreliable cases (expected tool not offered) count in no pass rate here, as in
 * the summaries; they are counted in their own column.
 */
export function configurationMatrix(
  result: Pick<SuiteRunResult, 'runs' | 'cases'>,
): ConfigurationMatrix {
  const columns = result.runs.map((run) =>
    column(
      run,
      result.cases.filter((item) => item.run === run.run),
    ),
  );
  const rows = (by: 'tools' | 'tags'): MatrixRow[] => {
    const groups = [
      ...new Set(result.cases.flatMap((item) => (item.status === 'unreliable' ? [] : item[by]))),
    ].sort();
    return groups.map((group) => ({
      group,
      cells: result.runs.map((run) => {
        const own = result.cases.filter(
          (item) =>
            item.run === run.run && item.status !== 'unreliable' && item[by].includes(group),
        );
        if (own.length === 0) return null;
        const passed = own.filter((item) => item.status === 'pass').length;
        return { passed, total: own.length, pass_rate: round(passed / own.length) };
      }),
    }));
  };
  return { columns, by_tool: rows('tools'), by_tag: rows('tags') };
}

/** One stored run in a comparison: its label (`#12`, `#12:small`), its result, and the configuration named, if one was. */
export interface LabelledRun {
  readonly label: string;
  readonly result: Pick<SuiteRunResult, 'runs' | 'cases'>;
  readonly config?: string;
}

/**
 * Several stored runs as one result whose configurations are columns named after their run —
 * `#12` for a run of one configuration (or the one named), `#12:small` for each of several —
 * so `calltape compare A B` puts two runs side by side with the matrix of one run.
 */
export function labelledConfigurations(
  sides: readonly LabelledRun[],
): Pick<SuiteRunResult, 'runs' | 'cases'> {
  const runs: ConfigurationSummary[] = [];
  const cases: CaseResult[] = [];
  for (const side of sides) {
    const chosen = side.result.runs.filter(
      (run) => side.config === undefined || run.run === side.config,
    );
    for (const run of chosen) {
      const label =
        side.config !== undefined || chosen.length === 1 ? side.label : `${side.label}:${run.run}`;
      runs.push({ ...run, run: label });
      for (const item of side.result.cases)
        if (item.run === run.run) cases.push({ ...item, run: label });
    }
  }
  return { runs, cases };
}

/** A line of the side-by-side table: a labelled row of one text cell per configuration, or a section title. */
export type MatrixLine =
  | { readonly kind: 'row'; readonly label: string; readonly cells: readonly string[] }
  | { readonly kind: 'section'; readonly title: string };

/** The side-by-side table as text cells, the same for the terminal and the HTML report. */
export function matrixLines(matrix: ConfigurationMatrix): MatrixLine[] {
  const columns = matrix.columns;
  const row = (label: string, cell: (column: ConfigurationColumn) => string): MatrixLine => ({
    kind: 'row',
    label,
    cells: columns.map(cell),
  });
  const lines: MatrixLine[] = [
    row('model', (column) => column.model ?? '-'),
    row('tools offered', (column) =>
      column.tools_offered === null ? 'unknown' : column.tools_offered.join(', ') || '(none)',
    ),
    row('pass rate', (column) => `${pct(column.pass_rate)} (${column.passed}/${column.counted})`),
    row('unreliable', (column) => String(column.unreliable)),
    row('mean score', (column) => column.mean_score.toFixed(3)),
    row(
      'judge verdicts',
      (column) =>
        `${column.judge.pass} pass · ${column.judge.fail} fail${column.judge.error > 0 ? ` · ${column.judge.error} error` : ''}`,
    ),
    row('tokens (in + out)', (column) => `${column.tokens.input} + ${column.tokens.output}`),
    row('cost', (column) => (column.cost_usd === null ? '-' : `$${column.cost_usd.toFixed(4)}`)),
    row('mean latency', (column) => `${column.mean_latency_ms} ms`),
  ];
  const groups = (title: string, rows: readonly MatrixRow[]): void => {
    if (rows.length === 0) return;
    lines.push({ kind: 'section', title });
    for (const item of rows)
      lines.push({
        kind: 'row',
        label: item.group,
        cells: item.cells.map((cell) =>
          cell === null ? '-' : `${pct(cell.pass_rate)} (${cell.passed}/${cell.total})`,
        ),
      });
  };
  groups('pass rate per expected tool', matrix.by_tool);
  groups('pass rate per tag', matrix.by_tag);
  return lines;
}

function column(run: ConfigurationSummary, cases: readonly CaseResult[]): ConfigurationColumn {
  const judge = { pass: 0, fail: 0, error: 0 };
  for (const item of cases)
    for (const check of item.trajectory?.checks ?? [])
      if (check.check === 'judge') judge[check.status] += 1;
  const tokens = {
    input: sum(cases.map((item) => item.tokens.input)),
    output: sum(cases.map((item) => item.tokens.output)),
  };
  const price = run.price ?? null;
  return {
    run: run.run,
    model: run.model,
    tools_offered: run.tools_offered ?? null,
    cases: run.total,
    passed: run.passed,
    unreliable: run.unreliable ?? 0,
    // Older reports left unreliable cases out of the pass rate and said nothing.
    counted: run.counted ?? run.total - (run.unreliable ?? 0),
    pass_rate: run.pass_rate,
    mean_score: run.mean_score,
    judge,
    tokens,
    cost_usd: price
      ? round((tokens.input * price.input + tokens.output * price.output) / 1_000_000)
      : null,
    mean_latency_ms:
      cases.length === 0
        ? 0
        : Math.round(sum(cases.map((item) => item.duration_ms)) / cases.length),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
