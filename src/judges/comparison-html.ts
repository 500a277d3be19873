import { escapeHtml as esc } from '../report/escape-html.js';
import type { JudgeComparison } from './compare-judges.js';
import { comparisonCells, comparisonHeadline } from './render-comparison.js';

/**
 * The judge comparison as one self-contained HTML page (no external files): the same figures as
 * the terminal table and the JSON report, the best judge, and every disagreement with the rater's
 * note, so a person can re-read the runs in question.
 */
export function comparisonHtml(
  comparison: JudgeComparison,
  context: { readonly set: string; readonly judgesFile: string },
): string {
  const cells = comparisonCells(comparison);
  const headline = comparisonHeadline(comparison);
  const table = `<table><tr>${cells.head.map((cell) => `<th>${esc(cell)}</th>`).join('')}</tr>${cells.rows
    .map(
      (row, index) =>
        `<tr data-judge="${esc(comparison.judges[index]?.name ?? '')}">${row.map((cell) => `<td>${esc(cell).replace(/\n/g, '<br>')}</td>`).join('')}</tr>`,
    )
    .join('')}</table>`;
  const disagreements = comparison.judges
    .filter((judge) => judge.disagreements.length > 0)
    .map(
      (judge) =>
        `<h3>${esc(judge.name)} disagrees on ${judge.disagreements.length} run(s)</h3><ul>${judge.disagreements
          .map(
            (item) =>
              `<li><code>${esc(item.run)}</code>: rated <b class="${item.rating}">${item.rating}</b>, judged <b class="${item.judged ?? 'none'}">${item.judged ?? 'no answer'}</b>${item.reason ? ` — ${esc(item.reason)}` : ''}${item.note ? `<br><span class="note">rater's note: ${esc(item.note)}</span>` : ''}</li>`,
          )
          .join('')}</ul>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>calltape judges compare: ${esc(context.set)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:80rem;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
td{font-variant-numeric:tabular-nums}b.fail{color:#cf222e}b.pass{color:#1a7f37}.note{color:#57606a}code{font-size:.9em}
</style></head><body>
<h1>Judges compared with the set “${esc(context.set)}”</h1>
<p>${esc(headline.rated)} Judges: <code>${esc(context.judgesFile)}</code>.</p>
${table}
<p id="best"><b>${esc(headline.best)}</b></p>
<h2>Disagreements</h2>
${disagreements || '<p>none</p>'}
</body></html>
`;
}
