import { appendFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { exportRun } from '../../view/export-page.js';
import { jsonReport } from '../../report/json-report.js';
import { junitReport } from '../../report/junit-report.js';
import { markdownReport } from '../../report/markdown-report.js';
import { terminalReport } from '../../report/terminal-report.js';
import { RunStore, suiteRunsDatabase } from '../../runner/run-store.js';
import { isPostgresUrl } from '../../database-url.js';
import { shellCommand } from '../../shell-command.js';
import type { SuiteRunResult } from '../../runner/run-suite.js';
import { exitCodes } from '../exit-codes.js';
import { runsDb } from './runs-command.js';
import { gitFacts } from '../../runner/git-facts.js';
import { writePrivateFile } from '../../private-files.js';

/** The report options `calltape test`, `score` and `merge-reports` share. */
export interface ReportFlags {
  readonly runsDb?: string;
  /** commander's --no-store. */
  readonly store?: boolean;
  readonly json?: string;
  readonly junit?: string;
  readonly markdown?: string;
  readonly html?: string;
  readonly baseline?: string;
  readonly now?: string;
}

/** Prints the terminal report, writes the files asked for, and gives the exit code: 3 when a case could not run, 1 when a gate failed. */
export function report(ran: readonly SuiteRunResult[], flags: ReportFlags): number {
  // Every run notes where it ran: a later `--baseline branch:<name>` and the runs list need it.
  const git = gitFacts(process.cwd());
  const results = ran.map((result) => ({ ...result, git }));
  const errored = results.some((result) => result.cases.some((item) => item.status === 'error'));
  const gateFailed = results.some((result) => result.gates.some((gate) => !gate.pass));
  const exitCode = errored
    ? exitCodes.infrastructure
    : gateFailed
      ? exitCodes.failed
      : exitCodes.ok;
  for (const result of results)
    process.stdout.write(
      terminalReport(result, process.stdout.isTTY === true && !process.env['NO_COLOR']),
    );
  const [first] = results;
  if (!first) return exitCode;
  // One suite per report file: several suites write `name.<suite>.ext` beside the path given.
  const target = (path: string, result: SuiteRunResult): string =>
    results.length === 1 ? path : path.replace(/(\.[^./]+)?$/, `.${result.suite}$1`);
  // The id each run was stored under (0: not stored), for the HTML export's addresses.
  const ids = new Map<SuiteRunResult, number>();
  if (flags.store !== false)
    for (const result of results) {
      const store = new RunStore(suiteRunsDatabase(flags.runsDb, result.cassette));
      try {
        const id = store.save(result, exitCode, jsonReport(result, exitCode));
        ids.set(result, id);
        // The command as it works from here: with --runs-db unless the database is the default one.
        const shown = isPostgresUrl(store.path)
          ? store.location
          : relative(process.cwd(), store.path) || store.path;
        const show = ['runs', 'show', String(id)];
        if (resolve(store.path) !== runsDb({})) show.push('--runs-db', shown);
        process.stdout.write(`stored as run #${id} in ${shown} (calltape ${shellCommand(show)})\n`);
      } finally {
        store.close();
      }
    }
  for (const result of results) {
    if (flags.json) writeReport(target(flags.json, result), jsonReport(result, exitCode));
    if (flags.junit) writeReport(target(flags.junit, result), junitReport(result));
    if (flags.markdown) writeReport(target(flags.markdown, result), markdownReport(result));
    if (flags.html)
      writeReport(
        target(flags.html, result),
        exportRun(
          result,
          { id: ids.get(result) ?? 0, exitCode },
          { cwd: process.cwd(), runsDb: suiteRunsDatabase(flags.runsDb, result.cassette) },
        ),
      );
    const summary = process.env['GITHUB_STEP_SUMMARY'];
    if (summary) appendFileSync(summary, markdownReport(result));
  }
  return exitCode;
}

/** Writes a report file, creating its folder: a fresh CI checkout has no reports/ yet. */
function writeReport(path: string, text: string): void {
  const absolute = resolve(path);
  writePrivateFile(absolute, text);
}
