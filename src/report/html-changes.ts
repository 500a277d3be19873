import {
  baselineHeadline,
  behaviourCells,
  behaviourColumns,
  behaviourRows,
} from './behaviour-diff-text.js';
import { escapeHtml } from './escape-html.js';
import { replayMissText } from './replay-miss-summary.js';
import type { SuiteRunResult } from './run-result.js';

/** The HTML "What changed" section: the comparison with the baseline as one table, every text escaped. */
export function htmlBehaviourDiff(result: SuiteRunResult): string {
  const { baseline } = result;
  if (!baseline) return '';
  const rows = behaviourRows(baseline, result.runs.length > 1)
    .map(
      (row) =>
        `<tr>${behaviourCells(row, '\n')
          .map((cell) => `<td>${cell.split('\n').map(escapeHtml).join('<br>')}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<h2>What changed</h2><p class="baseline">${escapeHtml(baselineHeadline(baseline))}</p>${rows ? `<table class="changes"><tr>${behaviourColumns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr>${rows}</table>` : ''}`;
}

/** Replay misses told once per cause, with the command that records them. */
export function htmlReplayMisses(result: SuiteRunResult): string {
  if (!result.replay_misses) return '';
  const { line, differences, command } = replayMissText(result.replay_misses);
  return `<h2>Replay misses</h2><p>${escapeHtml(line)}</p><pre>${escapeHtml([...differences, `record them: ${command}`].join('\n'))}</pre>`;
}
