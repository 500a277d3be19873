import type Table from 'cli-table3';
import {
  baselineHeadline,
  behaviourCells,
  behaviourColumns,
  behaviourRows,
} from './behaviour-diff-text.js';
import { replayMissText } from './replay-miss-summary.js';
import type { SuiteRunResult } from './run-result.js';

/** The terminal's "what changed" section: the comparison with the baseline as one table. */
export function terminalBehaviourDiff(
  result: SuiteRunResult,
  table: (head: string[]) => Table.Table,
): string[] {
  const { baseline } = result;
  if (!baseline) return [];
  const lines = ['', baselineHeadline(baseline)];
  const rows = behaviourRows(baseline, result.runs.length > 1);
  if (rows.length > 0) {
    const changes = table([...behaviourColumns]);
    for (const row of rows) changes.push(behaviourCells(row, '\n'));
    lines.push(changes.toString());
  }
  return lines;
}

/** Replay misses told once per cause, with the command that records them. */
export function terminalReplayMisses(result: SuiteRunResult): string[] {
  if (!result.replay_misses) return [];
  const { line, differences, command } = replayMissText(result.replay_misses);
  return [
    '',
    line,
    ...differences.map((difference) => `  ${difference}`),
    `  record them: ${command}`,
  ];
}
