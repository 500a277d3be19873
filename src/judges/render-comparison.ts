import Table from 'cli-table3';
import type { JudgeComparison } from './compare-judges.js';

const figure = (value: number | null, digits = 2): string => (value === null ? '—' : value.toFixed(digits));
const share = (value: number | null): string => (value === null ? '—' : `${(Math.round(value * 1000) / 10).toString()}%`);

/** The comparison for a terminal: one row per judge, the best named, then every disagreement. */
export function renderComparison(comparison: JudgeComparison): string {
  const table = new Table({
    head: ['judge', 'n', 'accuracy', 'κ', 'precision', 'recall', 'F1', 'TP FP FN TN', 'flake', 'ρ', 'τ', 'tokens in/out', 'cost $', 'latency ms'],
    style: { head: [], border: [] },
  });
  for (const judge of comparison.judges) {
    const { truePositive, falsePositive, falseNegative, trueNegative } = judge.confusion;
    table.push([
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
    ]);
  }
  const lines = [
    `${comparison.runs} rated runs (${comparison.rated_pass} pass, ${comparison.rated_fail} fail); fail is the class a judge must catch (TP = both said fail).`,
    table.toString(),
    comparison.best === null ? 'No judge answered any run.' : `Best judge: ${comparison.best} (highest κ, then lowest cost).`,
  ];
  for (const judge of comparison.judges) {
    if (judge.disagreements.length === 0) continue;
    lines.push('', `${judge.name} disagrees on ${judge.disagreements.length} run(s):`);
    for (const item of judge.disagreements) {
      lines.push(`  ${item.run}: rated ${item.rating}, judged ${item.judged ?? 'no answer'}${item.reason ? ` — ${item.reason}` : ''}${item.note ? `\n    rater's note: ${item.note}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
