import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { baselineOf, jsonReport } from '../../report/json-report.js';
import { htmlReport } from '../../report/html-report.js';
import { junitReport } from '../../report/junit-report.js';
import { markdownReport } from '../../report/markdown-report.js';
import { terminalReport } from '../../report/terminal-report.js';
import type { CaseResult } from '../../scoring/case-result.js';
import { loadSuite } from '../../suites/load-suite.js';
import { filterSuite } from '../../runner/filter-cases.js';
import { expectedTools } from '../../scoring/score-case.js';
import type { Suite } from '../../scoring/suite-types.js';
import { runSuite, type SuiteRunResult } from '../../runner/run-suite.js';
import { otlpSettings, type OtlpFlags } from '../../otel/otlp-settings.js';
import { withRunSpans } from './test-spans.js';
import { parseShard, shardSuite } from '../../runner/shard-cases.js';
import { RunStore } from '../../runner/run-store.js';
import { noteCassetteUse } from '../../runner/cassette-use-store.js';
import type { CassetteUsage } from '../../cassette/cassette-usage.js';
import { scoreCassette } from '../../runner/score-cassette.js';
import { loadPolicies } from '../../live/load-policies.js';
import { scoreCassetteWithPolicies } from '../../live/score-cassette-policies.js';
import { shadowReportText } from '../../live/shadow-report-text.js';
import { resolveCassette } from '../resolve-cassette.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { runsDb } from './runs-command.js';
import { runShard } from './test-shard.js';
import { readBlob } from '../../runner/shard-blob-file.js';
import { mergeShards } from '../../runner/merge-shards.js';

interface ReportFlags {
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
interface TestFlags extends ConfigFlags, ReportFlags, OtlpFlags {
  readonly concurrency?: string;
  readonly filter?: string;
  readonly list?: boolean;
  readonly shard?: string;
  readonly blob?: string;
}
export type { ReportFlags };
interface ScoreFlags extends ReportFlags {
  readonly cassette: string;
  readonly suite?: string;
  readonly policies?: string;
  readonly shadowDb?: string;
}

export function registerTestCommands(program: Command): void {
  const reportOptions = (command: Command): Command =>
    command
      .option('--json <file>', 'write the JSON report (config/test-report.schema.json)')
      .option('--junit <file>', 'write JUnit XML for CI')
      .option(
        '--markdown <file>',
        'write a Markdown report (also appended to $GITHUB_STEP_SUMMARY when set)',
      )
      .option(
        '--html <file>',
        'write one self-contained HTML page: summary, filters, per-case diffs and timelines',
      )
      .option(
        '--baseline <run|file>',
        'an earlier run (its id in the runs database, or its JSON report), for the max_regression gate',
      )
      .option('--runs-db <file>', 'where runs are stored (default recordings/calltape-runs.sqlite)')
      .option('--no-store', 'do not store this run')
      .option('--now <iso>', 'the scoring clock for {{TODAY}}-style placeholders (default: now)');
  reportOptions(
    program
      .command('test')
      .description(
        'run ground-truth suites as a CI gate: exit 0 when every gate holds, 1 when one fails',
      )
      .argument('<suites...>', 'suite files (YAML, JSON or JSONL)')
      .option('--mode <mode>', 'replay (default: offline from the cassette) | record | auto')
      .option('--concurrency <n>', 'cases run at once (default: CPU count)')
      .option(
        '--config <file>',
        'proxy configuration to start from (upstream, timeouts, redaction)',
      )
      .option('--upstream <url>', 'provider origin for record and auto')
      .option('--anthropic-upstream <url>', 'Anthropic origin for record and auto')
      .option(
        '--cassette <name>',
        "use this cassette instead of the suite's (a name in recordings/ or a path)",
      )
      .option(
        '--filter <patterns>',
        'run only the cases whose test id, tag or expected tool matches a pattern (globs, comma-separated: TC-01*,safety)',
      )
      .option('--list', 'print the cases that would run (after --filter) and exit')
      .option(
        '--shard <i/n>',
        'run only shard i of n (a stable split by suite file name and test id); needs --blob; gates are evaluated by calltape merge-reports',
      )
      .option('--blob <file>', "write this run's full result for calltape merge-reports")
      .option(
        '--otlp-endpoint <url>',
        'export each case as OpenTelemetry GenAI spans, its scores as evaluation events, to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_ENDPOINT)',
      )
      .option(
        '--otlp-capture-content',
        'include messages, tool definitions, arguments and results in the spans (redacted)',
      ),
  ).action(async (files: string[], flags: TestFlags) => {
    process.exitCode = await guarded(program, async () => {
      const cwd = process.cwd();
      const mode = flags.mode ?? 'replay';
      if (mode !== 'replay' && mode !== 'record' && mode !== 'auto')
        throw new CalltapeError(
          'CONFIG_INVALID',
          `command line: --mode: must be one of ["replay","record","auto"] (got "${mode}")`,
        );
      const concurrency = flags.concurrency === undefined ? undefined : Number(flags.concurrency);
      if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `command line: --concurrency: must be a whole number ≥ 1 (got "${flags.concurrency}")`,
        );
      const { config } = loadConfig(
        {
          config: flags.config,
          upstream: flags.upstream,
          anthropicUpstream: flags.anthropicUpstream,
        },
        process.env,
        cwd,
      );
      const suites = files
        .map((file) => filterSuite(loadSuite(file, cwd), flags.filter))
        .map((suite) =>
          flags.cassette ? { ...suite, cassette: resolveCassette(flags.cassette, cwd) } : suite,
        );
      if (flags.list) {
        // With --shard, the cases this shard would run: the same split as the run itself.
        const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
        for (const suite of suites)
          process.stdout.write(
            listCases(shard ? shardSuite(suite, basename(suite.file), shard) : suite, cwd),
          );
        return exitCodes.ok;
      }
      const otlp = otlpSettings(flags.otlpEndpoint, flags.otlpCaptureContent, process.env);
      if (flags.shard !== undefined || flags.blob !== undefined)
        return runShard(suites, flags, {
          config,
          mode,
          concurrency,
          logger: createLogger('error'),
          now: clock(flags.now, suites[0]?.now),
          startProgress,
          otlp,
        });
      const results: SuiteRunResult[] = [];
      for (const suite of suites) {
        const progress = startProgress(suite.cases.length * suite.runs.length);
        const result = await withRunSpans(otlp, suite.name, (spans) =>
          runSuite(suite, {
            config,
            mode,
            ...(concurrency !== undefined ? { concurrency } : {}),
            now: clock(flags.now, suite.now),
            logger: createLogger('error'),
            ...baseline(flags.baseline, runsDb(flags)),
            ...(process.env['OPENAI_API_KEY'] ? { apiKey: process.env['OPENAI_API_KEY'] } : {}),
            onCase: progress.tick,
            ...(flags.store === false
              ? {}
              : {
                  onCassetteUse: (usages: readonly CassetteUsage[]) =>
                    noteCassetteUse(runsDb(flags), usages),
                }),
            spans,
          }).finally(progress.stop),
        );
        results.push(result);
      }
      return report(results, flags);
    });
  });

  reportOptions(
    program
      .command('merge-reports')
      .description(
        'merge the blobs of a sharded calltape test into one report, gate it as one run, and store it',
      )
      .argument('<blobs...>', 'the --blob file of every shard'),
  ).action(async (files: string[], flags: ReportFlags) => {
    process.exitCode = await guarded(program, async () => {
      return report(
        [mergeShards(files.map(readBlob), baseline(flags.baseline, runsDb(flags)).baseline)],
        flags,
      );
    });
  });

  reportOptions(
    program
      .command('score')
      .description(
        're-score recorded traffic against a suite or a policies file, without running anything',
      )
      .requiredOption('--cassette <name>', 'cassette: a name (recordings/<name>.sqlite) or a path')
      .option('--suite <file>', 'the suite to score against')
      .option(
        '--policies <file>',
        'score every recorded call and session against shadow-scoring policies instead',
      )
      .option(
        '--shadow-db <file>',
        'with --policies: keep the results in this SQLite file (calltape shadow report --db reads it)',
      ),
  ).action(async (flags: ScoreFlags) => {
    process.exitCode = await guarded(program, async () => {
      const cwd = process.cwd();
      if ((flags.suite === undefined) === (flags.policies === undefined))
        throw new CalltapeError(
          'CONFIG_INVALID',
          'calltape score: give exactly one of --suite or --policies',
        );
      if (flags.policies !== undefined) {
        const result = await scoreCassetteWithPolicies(
          loadPolicies(flags.policies, cwd),
          resolveCassette(flags.cassette, cwd),
          flags.shadowDb === undefined ? undefined : resolve(cwd, flags.shadowDb),
        );
        process.stdout.write(shadowReportText(result.report));
        if (result.skipped.length > 0)
          process.stdout.write(`Not asked offline (LLM judges): ${result.skipped.join(', ')}\n`);
        process.stdout.write(
          `${result.failedCalls} call(s) and ${result.failedSessions} session(s) failed a policy\n`,
        );
        return result.failedCalls + result.failedSessions > 0 ? exitCodes.failed : exitCodes.ok;
      }
      const suite = loadSuite(flags.suite as string, cwd);
      const result = await scoreCassette(suite, resolveCassette(flags.cassette, cwd), {
        now: clock(flags.now, suite.now),
        ...baseline(flags.baseline, runsDb(flags)),
      });
      return report([result], flags);
    });
  });
}

async function guarded(program: Command, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    return reportError(error, program.opts<{ debug?: boolean }>().debug === true);
  }
}

/** Prints the terminal report, writes the files asked for, and gives the exit code: 3 when a case could not run, 1 when a gate failed. */
function report(results: readonly SuiteRunResult[], flags: ReportFlags): number {
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
  const store = flags.store === false ? undefined : new RunStore(runsDb(flags));
  try {
    for (const result of results) {
      if (!store) continue;
      const id = store.save(result, exitCode, jsonReport(result, exitCode));
      process.stdout.write(
        `stored as run #${id} in ${relative(process.cwd(), store.path) || store.path} (calltape runs show ${id})\n`,
      );
    }
  } finally {
    store?.close();
  }
  for (const result of results) {
    if (flags.json) writeReport(target(flags.json, result), jsonReport(result, exitCode));
    if (flags.junit) writeReport(target(flags.junit, result), junitReport(result));
    if (flags.markdown) writeReport(target(flags.markdown, result), markdownReport(result));
    if (flags.html) writeReport(target(flags.html, result), htmlReport(result));
    const summary = process.env['GITHUB_STEP_SUMMARY'];
    if (summary) appendFileSync(summary, markdownReport(result));
  }
  return exitCode;
}

/** Writes a report file, creating its folder: a fresh CI checkout has no reports/ yet. */
function writeReport(path: string, text: string): void {
  const absolute = resolve(path);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
}

/** `--list`: what would run, one case per line with what a filter can select it by. */
function listCases(suite: Suite, cwd: string): string {
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
      ? `  + ${suite.drafts.length} draft case(s), not run (calltape review ${shown})\n`
      : '';
  return `${shown}: ${suite.cases.length} case(s)${runs} · cassette ${relative(cwd, suite.cassette) || suite.cassette}\n${lines.join('')}${drafts}`;
}

/** The scoring clock: --now, else the suite's pinned `now`, else the time of the run. */
function clock(now: string | undefined, pinned: Date | undefined): Date {
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
function baseline(
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), 'utf8'));
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${resolve(file)}: cannot read the baseline report: ${(error as Error).message}`,
    );
  }
  const rates = baselineOf(parsed);
  if (!rates)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${resolve(file)}: not a calltape JSON report (no runs[].pass_rate)`,
    );
  return { baseline: rates };
}

/** A progress bar on a terminal; in CI logs a plain line at every tenth of the cases. */
function startProgress(total: number): { tick: (result: CaseResult) => void; stop: () => void } {
  if (!process.stderr.isTTY || process.env['CI']) {
    let done = 0;
    let failed = 0;
    const step = Math.max(1, Math.ceil(total / 10));
    return {
      tick: (result) => {
        done++;
        if (result.status !== 'pass') failed++;
        if (done % step === 0 || done === total)
          process.stderr.write(
            `calltape test: ${done}/${total} cases run, ${failed} not passing\n`,
          );
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'calltape test [{bar}] {value}/{total} cases · {failed} not passing',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let failed = 0;
  bar.start(total, 0, { failed });
  return {
    tick: (result) => {
      if (result.status !== 'pass') failed++;
      bar.increment(1, { failed });
    },
    stop: () => bar.stop(),
  };
}
