import Table from 'cli-table3';
import type { JudgeComparison } from './compare-judges.js';

const figure = (value: number | null, digits = 2): string =>
  value === null ? '—' : value.toFixed(digits);
const share = (value: number | null): string =>
  value === null ? '—' : `${(Math.round(value * 1000) / 10).toString()}%`;

/** The figures of the comparison as text cells, one row per judge: the terminal and the HTML report show exactly these. */
export function comparisonCells(comparison: JudgeComparison): {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
} {
  const head = [
    'judge',
    'n',
    'accuracy',
    'κ',
    'precision',
    'recall',
    'F1',
    'TP FP FN TN',
    'flake',
    'ρ',
    'τ',
    'tokens in/out',
    'cost $',
    'latency ms',
  ];
  const rows = comparison.judges.map((judge) => {
    const { truePositive, falsePositive, falseNegative, trueNegative } = judge.confusion;
    return [
      `${judge.name === comparison.best ? '★ ' : ''}${judge.name}${judge.model ? `\n(${judge.model})` : `\n(${judge.kind})`}`,
      `${judge.n}${judge.errors > 0 ? ` (+${judge.errors} unanswered)` : ''}`,
      share(judge.accuracy),
      figure(judge.kappa, 3),
      figure(judge.precision),
      figure(judge.recall),
      figure(judge.f1),
      `${truePositive} ${falsePositive} ${falseNegative} ${trueNegative}`,
      share(judge.flake_rate),
      figure(judge.spearman),
      figure(judge.kendall_tau),
      `${judge.tokens.input}/${judge.tokens.output}`,
      judge.cost === null ? '—' : judge.cost.toFixed(4),
      judge.mean_latency_ms === null ? '—' : Math.round(judge.mean_latency_ms).toString(),
    ];
  });
  return { head, rows };
}

/** The lines above and below the table: what was rated, and which judge is best. */
export function comparisonHeadline(comparison: JudgeComparison): {
  readonly rated: string;
  readonly best: string;
} {
  return {
    rated: `${comparison.runs} rated runs (${comparison.rated_pass} pass, ${comparison.rated_fail} fail); fail is the class a judge must catch (TP = both said fail).`,
    best:
      comparison.best === null
        ? 'No judge answered any run.'
        : `Best judge: ${comparison.best} (highest κ, then lowest cost).`,
  };
}

/** The comparison for a terminal: one row per judge, the best named, then every disagreement. */
export function renderComparison(comparison: JudgeComparison): string {
  const cells = comparisonCells(comparison);
  const table = new Table({ head: [...cells.head], style: { head: [], border: [] } });
  for (const row of cells.rows) table.push([...row]);
  const headline = comparisonHeadline(comparison);
  const lines = [headline.rated, table.toString(), headline.best];
  for (const judge of comparison.judges) {
    if (judge.disagreements.length === 0) continue;
    lines.push('', `${judge.name} disagrees on ${judge.disagreements.length} run(s):`);
    for (const item of judge.disagreements) {
      lines.push(
        `  ${item.run}: rated ${item.rating}, judged ${item.judged ?? 'no answer'}${item.reason ? ` — ${item.reason}` : ''}${item.note ? `\n    rater's note: ${item.note}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
