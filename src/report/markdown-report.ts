import { pct } from './pct.js';
import type { SuiteRunResult } from './run-result.js';
import { fencedBlock, markdownText } from './markdown-escape.js';
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
import { markdownBehaviourDiff, markdownReplayMisses } from './markdown-changes.js';
import { missedCaseLine } from './replay-miss-summary.js';

/** A Markdown report for pull requests and `$GITHUB_STEP_SUMMARY`: verdict, tables, gates, failing cases. */
export function markdownReport(result: SuiteRunResult): string {
  const cell = markdownText;
  const lines: string[] = [];
  lines.push(
    `## calltape test: ${cell(result.suite)} — ${result.passed ? '✅ passed' : '❌ failed'}`,
    '',
  );
  lines.push(
    `${result.drive} mode, ${result.mode}, ${result.cases.length} case run(s) in ${(result.duration_ms / 1000).toFixed(1)} s.`,
    '',
  );
  lines.push(
    '| run | model | cases | passed | failed | errors | unreliable | pass rate | mean score | tools offered |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const run of result.runs)
    lines.push(
      `| ${cell(run.run)} | ${cell(run.model ?? '-')} | ${run.total} | ${run.passed} | ${run.failed} | ${run.errors} | ${run.unreliable ?? 0} | ${pct(run.pass_rate)} | ${run.mean_score.toFixed(3)} | ${cell(offeredLine(run))} |`,
    );
  const tools = groupRows(result, 'tools');
  if (tools.length > 0) {
    lines.push(
      '',
      '| run | expected tool | cases | passed | pass rate |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const row of tools)
      lines.push(
        `| ${cell(row.run)} | ${cell(row.group)} | ${row.total} | ${row.passed} | ${row.rate} |`,
      );
  }
  const repeated = repeatedCases(result);
  if (repeated.length > 0) {
    lines.push('', '| case | samples passed | flaky | status |', '| --- | --- | --- | --- |');
    for (const item of repeated)
      lines.push(
        `| ${cell(caseName(result, item))} | ${item.samples?.passed ?? 0}/${item.samples?.total ?? 0} | ${item.samples?.flaky ? '⚠️ flaky' : ''} | ${item.status} |`,
      );
  }
  lines.push('', '### Gates', '');
  for (const gate of result.gates)
    lines.push(
      `- ${gate.pass ? '✅' : '❌'} <code>${cell(`${gate.gate}${gate.subject ? ` ${gate.subject}` : ''}`)}</code>${result.runs.length > 1 ? ` (${cell(gate.run)})` : ''}: ${cell(gate.message)}`,
    );
  lines.push(...markdownBehaviourDiff(result), ...markdownReplayMisses(result));
  const failing = failingCases(result);
  if (failing.length > 0) {
    lines.push('', `### ${failing.length} case(s) not passing`, '');
    for (const item of failing) {
      const missed = missedCaseLine(result.replay_misses, caseName(result, item));
      lines.push(
        `<details><summary><b>${item.status === 'error' ? 'ERROR' : 'FAIL'}</b> ${cell(caseName(result, item))} — score ${item.score.toFixed(3)}${item.samples ? `, ${samplesLine(item)}` : ''}</summary>`,
        '',
        ...fencedBlock(
          [
            `called: ${callsLine(item)}`,
            ...conversationLines(item),
            ...mockStateLines(item),
            ...(missed === undefined ? item.problems : [missed]),
          ].flatMap((line) => line.split(/\r?\n/)),
        ),
        '',
        '</details>',
      );
    }
  }
  const unreliable = unreliableCases(result);
  if (unreliable.length > 0) {
    lines.push(
      '',
      `### ${unreliable.length} case(s) unreliable`,
      '',
      'An expected tool was not offered to the model in that run: neither pass nor fail.',
      '',
    );
    for (const item of unreliable)
      lines.push(`- ${cell(caseName(result, item))}: ${cell(item.problems[0] ?? '')}`);
  }
  return `${lines.join('\n')}\n`;
}
