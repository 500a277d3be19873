import { relative, resolve } from 'node:path';
import { CalltapeError } from '../../errors.js';
import { baselineOf } from '../../report/json-report.js';
import { RunStore } from '../../runner/run-store.js';
import { expectedTools } from '../../scoring/score-case.js';
import type { Suite } from '../../scoring/suite-types.js';
import { readJsonFile } from '../../config/read-json-file.js';
import { shellCommand } from '../../shell-command.js';

/** `--list`: what would run, one case per line with what a filter can select it by. */
export function listCases(suite: Suite, cwd: string): string {
  const lines = suite.cases.map((testCase) => {
    const tags = testCase.tags?.length ? `  tags: ${testCase.tags.join(', ')}` : '';
    const tools = expectedTools(testCase);
    return `  ${testCase.test_id}${tags}${tools.length ? `  tools: ${tools.join(', ')}` : ''}\n`;
  });
  const runs =
    suite.runs.length > 1
      ? ` × ${suite.runs.length} runs (${suite.runs.map((run) => run.name).join(', ')})`
      : '';
  const shown = relative(cwd, suite.file) || suite.file;
  const drafts =
    suite.drafts.length > 0
      ? `  + ${suite.drafts.length} draft case(s), not run (calltape review ${shellCommand([shown])})\n`
      : '';
  return `${shown}: ${suite.cases.length} case(s)${runs} · cassette ${relative(cwd, suite.cassette) || suite.cassette}\n${lines.join('')}${drafts}`;
}

/** The scoring clock: --now, else the suite's pinned `now`, else the time of the run. */
export function clock(now: string | undefined, pinned: Date | undefined): Date {
  if (now === undefined) return pinned ?? new Date();
  const date = new Date(now);
  if (Number.isNaN(date.getTime()))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --now: not an ISO 8601 date-time (got "${now}")`,
    );
  return date;
}

/** Pass rates by run configuration of an earlier run: a run id in the runs database, or a JSON report file. */
export function baseline(
  file: string | undefined,
  database: string,
): { baseline?: ReadonlyMap<string, number> } {
  if (file === undefined) return {};
  if (/^\d+$/.test(file)) {
    const store = new RunStore(database, { readonly: true });
    try {
      const report = store.report(Number(file));
      if (report === undefined)
        throw new CalltapeError('CONFIG_INVALID', `--baseline: no run #${file} in ${database}`);
      return { baseline: baselineOf(JSON.parse(report)) ?? new Map() };
    } finally {
      store.close();
    }
  }
  const rates = baselineOf(readJsonFile(resolve(file), 'the baseline report'));
  if (!rates)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${resolve(file)}: not a calltape JSON report (no runs[].pass_rate)`,
    );
  return { baseline: rates };
}
