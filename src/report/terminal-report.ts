import Table from 'cli-table3';
import { pct } from './pct.js';
import type { SuiteRunResult } from './run-result.js';
import {
  callsLine,
  conversationLines,
  mockStateLines,
  caseName,
  failingCases,
  groupRows,
  offeredLine,
  repeatedCases,
  samplesLine,
  unreliableCases,
} from './report-text.js';
import { shellCommand } from '../shell-command.js';
import { terminalBehaviourDiff, terminalReplayMisses } from './terminal-changes.js';
import { missedCaseLine } from './replay-miss-summary.js';
import { terminalSafeValue } from '../terminal-safe.js';

/**
 * The report a person reads in a terminal or a CI log: per run configuration, per tool and per
 * tag tables, the gates, and every failing case with its per-argument diff.
 */
export function terminalReport(unsafe: SuiteRunResult, color: boolean): string {
  // Every text of a run (the model's arguments, an agent's output, a suite's ids) may hold control characters.
  const result = terminalSafeValue(unsafe);
  const paint = (code: number, text: string): string =>
    color ? `\u001b[${code}m${text}\u001b[0m` : text;
  const table = (head: string[]): Table.Table =>
    new Table({ head, style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] } });
  const lines: string[] = [];
  lines.push(
    `calltape test · ${result.suite} · ${result.drive} · ${result.mode} · cassette ${result.cassette} · ${result.cases.length} case run(s) in ${(result.duration_ms / 1000).toFixed(1)} s`,
    '',
  );
  const runs = table([
    'run',
    'model',
    'cases',
    'passed',
    'failed',
    'errors',
    'unreliable',
    'pass rate',
    'mean score',
    'tools offered',
  ]);
  for (const run of result.runs)
    runs.push([
      run.run,
      run.model ?? '-',
      run.total,
      run.passed,
      run.failed,
      run.errors,
      run.unreliable ?? 0,
      pct(run.pass_rate),
      run.mean_score.toFixed(3),
      offeredLine(run),
    ]);
  lines.push(runs.toString());
  const tools = groupRows(result, 'tools');
  if (tools.length > 0) {
    const byTool = table(
      result.runs.length > 1
        ? ['run', 'expected tool', 'cases', 'passed', 'pass rate']
        : ['expected tool', 'cases', 'passed', 'pass rate'],
    );
    for (const row of tools)
      byTool.push(
        result.runs.length > 1
          ? [row.run, row.group, row.total, row.passed, row.rate]
          : [row.group, row.total, row.passed, row.rate],
      );
    lines.push(byTool.toString());
  }
  const tags = groupRows(result, 'tags');
  if (tags.length > 0) {
    const byTag = table(
      result.runs.length > 1
        ? ['run', 'tag', 'cases', 'passed', 'pass rate']
        : ['tag', 'cases', 'passed', 'pass rate'],
    );
    for (const row of tags)
      byTag.push(
        result.runs.length > 1
          ? [row.run, row.group, row.total, row.passed, row.rate]
          : [row.group, row.total, row.passed, row.rate],
      );
    lines.push(byTag.toString());
  }
  const repeated = repeatedCases(result);
  if (repeated.length > 0) {
    const samples = table(['case', 'samples passed', 'flaky', 'status']);
    for (const item of repeated)
      samples.push([
        caseName(result, item),
        `${item.samples?.passed ?? 0}/${item.samples?.total ?? 0}`,
        item.samples?.flaky ? paint(33, 'flaky') : '',
        item.status,
      ]);
    lines.push(samples.toString());
  }
  lines.push(...terminalBehaviourDiff(result, table), ...terminalReplayMisses(result));
  const failing = failingCases(result);
  if (failing.length > 0) {
    lines.push('', paint(1, `${failing.length} case(s) not passing:`));
    for (const item of failing) {
      const tally = samplesLine(item);
      lines.push(
        `${paint(item.status === 'error' ? 33 : 31, item.status === 'error' ? 'ERROR' : 'FAIL ')} ${caseName(result, item)} (score ${item.score.toFixed(3)}${tally ? `; ${tally}` : ''})`,
      );
      lines.push(`      called: ${callsLine(item)}`);
      for (const line of conversationLines(item)) lines.push(`      ${line}`);
      for (const line of mockStateLines(item)) lines.push(`      ${line}`);
      const missed = missedCaseLine(result.replay_misses, caseName(result, item));
      for (const problem of missed === undefined ? item.problems : [missed])
        lines.push(`      ${problem}`);
    }
  }
  const unreliable = unreliableCases(result);
  if (unreliable.length > 0) {
    lines.push(
      '',
      paint(
        1,
        `${unreliable.length} case(s) unreliable (a tool the case names was not offered; neither pass nor fail):`,
      ),
    );
    for (const item of unreliable)
      lines.push(`${paint(35, 'UNREL')} ${caseName(result, item)}: ${item.problems[0] ?? ''}`);
  }
  const drafts = result.drafts ?? [];
  if (drafts.length > 0) {
    const pending = drafts
      .filter((draft) => draft.review === 'pending')
      .map((draft) => draft.test_id);
    const rejected = drafts.length - pending.length;
    lines.push(
      '',
      `${drafts.length} draft case(s) not run and not gated${rejected > 0 ? ` (${rejected} rejected)` : ''}${pending.length > 0 ? `; pending review: ${pending.join(', ')} (calltape review ${shellCommand([result.file])})` : ''}`,
    );
  }
  lines.push('', paint(1, 'gates:'));
  for (const gate of result.gates)
    lines.push(
      `  ${gate.pass ? paint(32, 'pass') : paint(31, 'FAIL')} ${gate.gate}${gate.subject ? ` ${gate.subject}` : ''}${result.runs.length > 1 ? ` [${gate.run}]` : ''}: ${gate.message}`,
    );
  const errors = result.cases.filter((item) => item.status === 'error').length;
  lines.push(
    '',
    result.passed
      ? paint(32, 'PASSED')
      : paint(31, `FAILED${errors > 0 ? ` (${errors} case(s) could not run or be judged)` : ''}`),
    '',
  );
  return lines.join('\n');
}
