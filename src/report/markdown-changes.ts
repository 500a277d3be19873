import {
  baselineHeadline,
  behaviourCells,
  behaviourColumns,
  behaviourRows,
} from './behaviour-diff-text.js';
import { fencedBlock, markdownText } from './markdown-escape.js';
import { replayMissText } from './replay-miss-summary.js';
import type { SuiteRunResult } from './run-result.js';

/** The Markdown "What changed" section: the comparison with the baseline as one table. */
export function markdownBehaviourDiff(result: SuiteRunResult): string[] {
  const { baseline } = result;
  if (!baseline) return [];
  const lines = ['', '### What changed', '', markdownText(baselineHeadline(baseline))];
  const rows = behaviourRows(baseline, result.runs.length > 1);
  if (rows.length > 0)
    lines.push(
      '',
      `| ${behaviourColumns.join(' | ')} |`,
      `|${' --- |'.repeat(behaviourColumns.length)}`,
      // Each cell escaped on its own; the arguments' line breaks become <br> after escaping.
      ...rows.map(
        (row) =>
          `| ${behaviourCells(row, '\n')
            .map((cell) => cell.split('\n').map(markdownText).join('<br>'))
            .join(' | ')} |`,
      ),
    );
  return lines;
}

/** Replay misses told once per cause, with the command that records them. */
export function markdownReplayMisses(result: SuiteRunResult): string[] {
  if (!result.replay_misses) return [];
  const { line, differences, command } = replayMissText(result.replay_misses);
  return [
    '',
    '### Replay misses',
    '',
    markdownText(line),
    '',
    ...fencedBlock([...differences, `record them: ${command}`]),
  ];
}
