import type { CaseResult } from '../scoring/case-result.js';
import { pct } from './pct.js';
import type { SuiteRunResult } from './run-result.js';

/** A row per group (tool or tag): cases, passed, pass rate. */
export interface GroupRow {
  readonly run: string;
  readonly group: string;
  readonly total: number;
  readonly passed: number;
  readonly rate: string;
}

/** Pass counts per tool a case expects (`(none)` for negative cases) or per tag, by run; unreliable cases are listed apart, not counted. */
export function groupRows(result: SuiteRunResult, by: 'tools' | 'tags'): GroupRow[] {
  const rows = new Map<string, { run: string; group: string; total: number; passed: number }>();
  for (const item of result.cases) {
    if (item.status === 'unreliable') continue;
    const groups = item[by].length > 0 ? item[by] : by === 'tools' ? ['(no tool expected)'] : [];
    for (const group of groups) {
      const key = `${item.run}\u0000${group}`;
      const row = rows.get(key) ?? { run: item.run, group, total: 0, passed: 0 };
      row.total++;
      if (item.status === 'pass') row.passed++;
      rows.set(key, row);
    }
  }
  return [...rows.values()]
    .sort((left, right) =>
      left.run === right.run ? (left.group < right.group ? -1 : 1) : left.run < right.run ? -1 : 1,
    )
    .map((row) => ({ ...row, rate: pct(row.total === 0 ? 1 : row.passed / row.total) }));
}

/** The case's name in reports: `run/test_id` when there are several runs. */
export function caseName(result: SuiteRunResult, item: CaseResult): string {
  return result.runs.length > 1 ? `${item.run}/${item.test_id}` : item.test_id;
}

/** The calls a case's run made, on one line. */
export function callsLine(item: CaseResult): string {
  if (item.calls.length === 0) return '(no tool call)';
  return item.calls
    .map(
      (call) =>
        `${call.name}(${call.arguments.length > 120 ? `${call.arguments.slice(0, 117)}...` : call.arguments})${call.mocked ? ' [mocked]' : ''}`,
    )
    .join(', ');
}

/**
 * A conversation case's turns, one line each: the turn, its verdict, what the user said, the
 * calls it made and what the agent answered (texts cut to 120 characters); then how it ended.
 * Empty for a single-prompt case.
 */
export function conversationLines(item: CaseResult): string[] {
  const conversation = item.conversation;
  if (!conversation) return [];
  const cut = (text: string): string => (text.length > 120 ? `${text.slice(0, 117)}...` : text);
  return [
    ...conversation.turns.map(
      (turn) =>
        `turn ${turn.turn} ${turn.status}: user ${JSON.stringify(cut(turn.user))} → ${callsLine({ ...item, calls: turn.calls })}${turn.reply === null ? '' : `; replied ${JSON.stringify(cut(turn.reply))}`}`,
    ),
    `ended by ${conversation.ended_by}${conversation.ended_reason ? ` (${conversation.ended_reason})` : ''}; mean turn score ${conversation.mean_turn_score.toFixed(3)}`,
  ];
}

/** The mock state a case left, on one line; empty when its calls changed none. */
export function mockStateLines(item: CaseResult): string[] {
  return item.mock_state ? [`mock state after: ${JSON.stringify(item.mock_state)}`] : [];
}

/** Cases that failed or could not run; unreliable ones are listed apart (`unreliableCases`). */
export function failingCases(result: SuiteRunResult): CaseResult[] {
  return result.cases.filter((item) => item.status === 'fail' || item.status === 'error');
}

/** Cases whose expected tool was not offered to the model: neither pass nor fail. */
export function unreliableCases(result: SuiteRunResult): CaseResult[] {
  return result.cases.filter((item) => item.status === 'unreliable');
}

/** The tools a run configuration offered, on one line (`unknown` for a report written before they were kept). */
export function offeredLine(run: SuiteRunResult['runs'][number]): string {
  if (run.tools_offered === undefined) return 'unknown';
  return run.tools_offered.length === 0 ? '(none)' : run.tools_offered.join(', ');
}

/** A repeated case's tally for a report line: `2/3 samples passed, flaky`; empty for a case that ran once. */
export function samplesLine(item: CaseResult): string {
  if (!item.samples) return '';
  return `${item.samples.passed}/${item.samples.total} samples passed${item.samples.flaky ? ', flaky' : ''}`;
}

/** Every repeated case (passing ones too: a flaky case can pass by `min_pass_rate`). */
export function repeatedCases(result: SuiteRunResult): CaseResult[] {
  return result.cases.filter((item) => item.samples !== undefined);
}
