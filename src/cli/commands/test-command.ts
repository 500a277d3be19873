import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { loadSuite } from '../../suites/load-suite.js';
import { filterSuite } from '../../runner/filter-cases.js';
import { runSuite, type SuiteRunResult } from '../../runner/run-suite.js';
import { otlpSettings, type OtlpFlags } from '../../otel/otlp-settings.js';
import { withRunSpans } from './test-spans.js';
import { parseShard, shardSuite } from '../../runner/shard-cases.js';
import { noteCassetteUse } from '../../runner/cassette-use-store.js';
import { chosenRunsDatabase, suiteRunsDatabase } from '../../runner/run-store.js';
import type { CassetteUsage } from '../../cassette/cassette-usage.js';
import { scoreCassette } from '../../runner/score-cassette.js';
import { loadPolicies } from '../../live/load-policies.js';
import { scoreCassetteWithPolicies } from '../../live/score-cassette-policies.js';
import { shadowReportText } from '../../live/shadow-report-text.js';
import { withCassetteFlag } from '../cassette-flag.js';
import { resolveCassette } from '../resolve-cassette.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { runShard } from './test-shard.js';
import { report, type ReportFlags } from './test-report.js';
import { baseline, baselineTarget, clock, listCases } from './test-inputs.js';
import { startProgress } from './test-progress.js';
import { readBlob, readBlobSuite } from '../../runner/shard-blob-file.js';
import { requireBlobsOfSuite } from '../../runner/check-shard-blobs.js';
import { mergeShards } from '../../runner/merge-shards.js';
import { codePolicyFromFlags, codePolicyOptions } from '../../user-code/code-policy.js';
import { compareWithBaseline } from '../../runner/load-baseline.js';

interface CodeFlags {
  /** commander's --no-code. */
  readonly code?: boolean;
  readonly allowCodeOutsideProject?: boolean;
}
interface TestFlags extends ConfigFlags, ReportFlags, OtlpFlags, CodeFlags {
  readonly concurrency?: string;
  readonly repeat?: string;
  readonly filter?: string;
  readonly list?: boolean;
  readonly shard?: string;
  readonly blob?: string;
}
interface ScoreFlags extends ReportFlags, CodeFlags {
  readonly cassette?: string;
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
        '--baseline <run|branch:name|file>',
        'the earlier run to compare with, case by case, and for the max_regression gate: a run id in the runs database, branch:<name> (the last run of this suite on that git branch), or a JSON report (default: the run that last recorded the cassette)',
      )
      .option(
        '--runs-db <file>',
        "where runs are stored, baselines are found and cassette use is noted (default: calltape-runs.sqlite beside the suite's cassette, or CALLTAPE_RUNS_DB)",
      )
      .option('--no-store', 'do not store this run')
      .option('--now <iso>', 'the scoring clock for {{TODAY}}-style placeholders (default: now)');
  const codeOptions = (command: Command): Command =>
    codePolicyOptions.reduce(
      (withOption, option) => withOption.option(option.flags, option.description),
      command,
    );
  codeOptions(
    reportOptions(
      program
        .command('test')
        .description(
          'run ground-truth suites as a CI gate: exit 0 when every gate holds, 1 when one fails',
        )
        .argument('<suites...>', 'suite files (YAML, JSON or JSONL)')
        .option('--mode <mode>', 'replay (default: offline from the cassette) | record | auto')
        .option(
          '--concurrency <n>',
          'cases run at once (default: CPU count; with an agent recording, 4 per core)',
        )
        .option(
          '--repeat <n>',
          "run every case n times, each a sample with its own recording (overrides the suite's repeats)",
        )
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
      const concurrency = wholeNumber('--concurrency', flags.concurrency);
      const { config } = loadConfig(
        {
          config: flags.config,
          upstream: flags.upstream,
          anthropicUpstream: flags.anthropicUpstream,
        },
        process.env,
        cwd,
      );
      const repeats = wholeNumber('--repeat', flags.repeat);
      const loaded = files.map((file) => {
        const suite = filterSuite(loadSuite(file, cwd), flags.filter);
        return repeats === undefined ? suite : { ...suite, repeats };
      });
      const suites = flags.cassette
        ? withCassetteFlag(loaded, flags.cassette, cwd, mode === 'replay' && flags.list !== true)
        : loaded;
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
          code: codePolicyFromFlags(flags),
        });
      const results: SuiteRunResult[] = [];
      for (const suite of suites) {
        const known = baseline(
          flags.baseline,
          baselineTarget(suite),
          suiteRunsDatabase(flags.runsDb, suite.cassette),
        );
        const progress = startProgress(
          suite.cases.length * suite.runs.length * (suite.repeats ?? 1),
        );
        const result = await withRunSpans(otlp, suite.name, (spans) =>
          runSuite(suite, {
            config,
            mode,
            ...(concurrency !== undefined ? { concurrency } : {}),
            now: clock(flags.now, suite.now),
            logger: createLogger('error'),
            ...known.gate,
            ...(process.env['OPENAI_API_KEY'] ? { apiKey: process.env['OPENAI_API_KEY'] } : {}),
            onCase: progress.tick,
            ...(flags.store === false
              ? {}
              : {
                  onCassetteUse: (usages: readonly CassetteUsage[]) =>
                    noteCassetteUse(chosenRunsDatabase(flags.runsDb), usages),
                }),
            spans,
            ...(flags.cassette ? { cassetteFlag: flags.cassette } : {}),
            code: codePolicyFromFlags(flags),
          }).finally(progress.stop),
        );
        results.push(compareWithBaseline(result, known.loaded));
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
      .argument('<blobs...>', 'the --blob file of every shard')
      .option(
        '--suite <file>',
        'the suite the shards ran, to check every blob against (default: the file the first shard ran)',
      ),
  ).action(async (files: string[], flags: ReportFlags & { readonly suite?: string }) => {
    process.exitCode = await guarded(program, async () => {
      const blobs = files.map(readBlob);
      requireBlobsOfSuite(blobs, readBlobSuite(flags.suite, blobs, process.cwd()));
      const first = blobs[0]?.blob.result;
      const known = first
        ? baseline(flags.baseline, first, suiteRunsDatabase(flags.runsDb, first.cassette))
        : { loaded: undefined, gate: {} };
      return report(
        [compareWithBaseline(mergeShards(blobs, known.gate.baseline), known.loaded)],
        flags,
      );
    });
  });

  codeOptions(
    reportOptions(
      program
        .command('score')
        .description(
          're-score recorded traffic against a suite or a policies file, without running anything',
        )
        .option(
          '--cassette <name>',
          "cassette: a name (recordings/<name>.sqlite) or a path (default with --suite: the suite's own)",
        )
        .option('--suite <file>', 'the suite to score against')
        .option(
          '--policies <file>',
          'score every recorded call and session against shadow-scoring policies instead',
        )
        .option(
          '--shadow-db <file>',
          'with --policies: keep the results in this SQLite file (calltape shadow report --db reads it)',
        ),
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
        if (flags.cassette === undefined)
          throw new CalltapeError(
            'CONFIG_INVALID',
            'calltape score --policies: name the cassette to score with --cassette',
          );
        const result = await scoreCassetteWithPolicies(
          loadPolicies(flags.policies, cwd),
          resolveCassette(flags.cassette, cwd),
          flags.shadowDb === undefined ? undefined : resolve(cwd, flags.shadowDb),
          codePolicyFromFlags(flags),
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
      // The suite names its cassette; --cassette scores another recording against it.
      const cassette =
        flags.cassette === undefined ? suite.cassette : resolveCassette(flags.cassette, cwd);
      const known = baseline(
        flags.baseline,
        { ...baselineTarget(suite), cassette },
        suiteRunsDatabase(flags.runsDb, cassette),
      );
      const result = await scoreCassette(suite, cassette, {
        now: clock(flags.now, suite.now),
        ...known.gate,
        code: codePolicyFromFlags(flags),
      });
      return report([compareWithBaseline(result, known.loaded)], flags);
    });
  });
}

/** A count flag (`--concurrency`, `--repeat`): a whole number ≥ 1, or undefined when not given. */
function wholeNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: ${flag}: must be a whole number ≥ 1 (got "${text}")`,
    );
  return value;
}

async function guarded(program: Command, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    return reportError(error, program.opts<{ debug?: boolean }>().debug === true);
  }
}
