import { resolve } from 'node:path';
import type { Command } from 'commander';
import Table from 'cli-table3';
import { CalltapeError } from '../../errors.js';
import { terminalReport } from '../../report/terminal-report.js';
import { compareRuns, type ComparedSide, type RunComparison } from '../../runner/compare-runs.js';
import { configurationMatrix, labelledConfigurations } from '../../report/configuration-matrix.js';
import { configurationTable } from '../../report/configuration-table.js';
import { pct } from '../../report/pct.js';
import type { SuiteRunResult } from '../../runner/run-suite.js';
import { RunStore, runsDatabaseFile } from '../../runner/run-store.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { writePrivateFile } from '../../private-files.js';
import { exportConfigurations } from '../../view/export-page.js';

/** The runs database: --runs-db, else CALLTAPE_RUNS_DB, else recordings/calltape-runs.sqlite. */
export function runsDb(flags: { readonly runsDb?: string | undefined }): string {
  return runsDatabaseFile(flags.runsDb);
}

/** `calltape runs ls|show` and `calltape compare`: stored runs, and what changed between two. */
export function registerRunCommands(program: Command): void {
  const runs = program.command('runs').description('stored test runs');
  runs
    .command('ls')
    .description('list stored runs, newest first')
    .option('--runs-db <file>', 'the runs database (default recordings/calltape-runs.sqlite)')
    .option('--limit <n>', 'how many', '50')
    .action((flags: { runsDb?: string; limit: string }) => {
      process.exitCode = guardedSync(program, () => {
        const store = new RunStore(runsDb(flags), { readonly: true });
        try {
          const table = new Table({
            head: [
              'run',
              'suite',
              'started',
              'mode',
              'configurations (pass rate, mean score, unreliable)',
              'verdict',
            ],
            style: { head: [], border: [] },
          });
          for (const run of store.list(Number(flags.limit) || 50)) {
            table.push([
              `#${run.id}`,
              run.suite,
              run.started_at.replace('T', ' ').slice(0, 19),
              run.mode,
              run.configs
                .map(
                  (config) =>
                    `${config.name}${config.model ? ` (${config.model})` : ''}: ${pct(config.pass_rate)}, ${config.mean_score.toFixed(3)}${config.unreliable > 0 ? `, ${config.unreliable} unreliable` : ''}`,
                )
                .join('\n'),
              run.passed ? 'passed' : `failed (exit ${run.exit_code})`,
            ]);
          }
          process.stdout.write(`${table.toString()}\n`);
        } finally {
          store.close();
        }
        return exitCodes.ok;
      });
    });
  runs
    .command('show')
    .description("print a stored run's report again")
    .argument('<id>', 'the run id (calltape runs ls)')
    .option('--runs-db <file>', 'the runs database')
    .option('--json', 'the JSON report instead of the terminal one')
    .action((id: string, flags: { runsDb?: string; json?: boolean }) => {
      process.exitCode = guardedSync(program, () => {
        const store = new RunStore(runsDb(flags), { readonly: true });
        try {
          const report = storedReport(store, id);
          process.stdout.write(
            flags.json
              ? report
              : terminalReport(
                  JSON.parse(report) as SuiteRunResult,
                  process.stdout.isTTY === true && !process.env['NO_COLOR'],
                ),
          );
        } finally {
          store.close();
        }
        return exitCodes.ok;
      });
    });
  program
    .command('compare')
    .description(
      'one run: its configurations side by side (tools offered, pass rate per tool and tag, judges, tokens, cost, latency); two: both side by side, then what changed between them (RUN:CONFIG for one configuration), exit 1 on a regression',
    )
    .argument('<a>', 'a run id; with <b>, the earlier run: an id, or id:configuration')
    .argument('[b]', 'the later run: an id, or id:configuration')
    .option('--runs-db <file>', 'the runs database')
    .option('--json', 'print the comparison as JSON')
    .option('--html <file>', 'also write the configurations side by side as an HTML page')
    .action(
      (
        a: string,
        b: string | undefined,
        flags: { runsDb?: string; json?: boolean; html?: string },
      ) => {
        process.exitCode = guardedSync(program, () => {
          const store = new RunStore(runsDb(flags), { readonly: true });
          try {
            if (b === undefined) {
              const matrix = configurationMatrix(storedResult(store, a));
              writeHtml(flags.html, runsDb(flags), [a]);
              process.stdout.write(
                flags.json ? `${JSON.stringify(matrix, null, 2)}\n` : configurationTable(matrix),
              );
              return exitCodes.ok;
            }
            const sides = [side(store, a), side(store, b)] as const;
            const comparison = compareRuns(...sides);
            // The two runs' configurations side by side, as `compare <id>` shows one run's.
            const matrix = configurationMatrix(
              labelledConfigurations(
                sides.map((item) => ({
                  label: item.label,
                  result: storedResult(store, String(item.id)),
                  config: item.config,
                })),
              ),
            );
            writeHtml(flags.html, runsDb(flags), [a, b]);
            process.stdout.write(
              flags.json
                ? `${JSON.stringify({ ...comparison, configurations: matrix }, null, 2)}\n`
                : `${configurationTable(matrix)}\n${comparisonText(comparison)}`,
            );
            return comparison.regressions.length > 0 ? exitCodes.failed : exitCodes.ok;
          } finally {
            store.close();
          }
        });
      },
    );
}

function guardedSync(program: Command, run: () => number): number {
  try {
    return run();
  } catch (error) {
    return reportError(error, program.opts<{ debug?: boolean }>().debug === true);
  }
}

/** A stored run's whole JSON report, by id. */
function storedReport(store: RunStore, id: string): string {
  const report = /^\d+$/.test(id) ? store.report(Number(id)) : undefined;
  if (report === undefined)
    throw new CalltapeError('CONFIG_INVALID', `no run #${id} in ${store.location}`);
  return report;
}

function storedResult(store: RunStore, id: string): SuiteRunResult {
  return JSON.parse(storedReport(store, id)) as SuiteRunResult;
}

/** Writes the side-by-side page (calltape view's, exported) when --html was given. */
function writeHtml(file: string | undefined, runsDb: string, references: readonly string[]): void {
  if (file === undefined) return;
  const path = resolve(file);
  writePrivateFile(path, exportConfigurations({ cwd: process.cwd(), runsDb }, references));
}

/** `12` or `12:small`: a run configuration's case results, and which run and configuration they are. */
function side(
  store: RunStore,
  reference: string,
): ComparedSide & { readonly id: number; readonly config: string } {
  const match = /^(\d+)(?::(.+))?$/.exec(reference);
  if (!match)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `"${reference}" is not a run (an id, or id:configuration)`,
    );
  const id = Number(match[1]);
  const configs = store.configs(id);
  if (configs.length === 0)
    throw new CalltapeError('CONFIG_INVALID', `no run #${id} in ${store.location}`);
  const config = match[2] ?? (configs.length === 1 ? configs[0] : undefined);
  if (config === undefined || !configs.includes(config))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `run #${id} has the configurations ${configs.join(', ')}: name one as ${id}:<configuration>`,
    );
  const cases = store.cases(id, config).map((item) => ({
    test_id: item.test_id,
    status: item.status,
    score: item.score,
    problem: (JSON.parse(item.problems) as string[])[0] ?? null,
  }));
  return { label: configs.length > 1 ? `#${id}:${config}` : `#${id}`, cases, id, config };
}

function comparisonText(comparison: RunComparison): string {
  const lines = [
    `${comparison.a} → ${comparison.b}: pass rate ${pct(comparison.pass_rate.a)} → ${pct(comparison.pass_rate.b)}`,
  ];
  const section = (title: string, changes: RunComparison['regressions']): void => {
    if (changes.length === 0) return;
    lines.push('', `${title} (${changes.length}):`);
    for (const change of changes)
      lines.push(
        `  ${change.test_id}: ${change.from} → ${change.to} (score ${change.from_score.toFixed(3)} → ${change.to_score.toFixed(3)})${change.problem ? ` — ${change.problem}` : ''}`,
      );
  };
  section('regressions', comparison.regressions);
  section('fixes', comparison.fixes);
  section('score changes', comparison.score_changes);
  section(
    'unreliable on one side (expected tool not offered; neither a regression nor a fix)',
    comparison.unreliable,
  );
  if (comparison.only_in_a.length > 0)
    lines.push('', `only in ${comparison.a}: ${comparison.only_in_a.join(', ')}`);
  if (comparison.only_in_b.length > 0)
    lines.push('', `only in ${comparison.b}: ${comparison.only_in_b.join(', ')}`);
  if (
    comparison.regressions.length +
      comparison.fixes.length +
      comparison.score_changes.length +
      comparison.unreliable.length ===
    0
  )
    lines.push('', 'no case changed');
  return `${lines.join('\n')}\n`;
}
