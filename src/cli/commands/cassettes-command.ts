import { basename, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import Table from 'cli-table3';
import type { Command } from 'commander';
import {
  cassetteText,
  exportCassette,
  importCassette,
  listCassettes,
  requireCassette,
} from '../../cassette/sqlite/cassette-files.js';
import {
  deleteRecordings,
  mergeCassette,
  recordingsSince,
  unusedRecordings,
} from '../../cassette/sqlite/cassette-maintenance.js';
import { pruneRefusal } from '../../runner/prune-refusal.js';
import { CassetteUseStore } from '../../runner/cassette-use-store.js';
import { chosenRunsDatabase, runsDatabaseBeside } from '../../runner/run-store.js';
import { CalltapeError } from '../../errors.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { readInteractions } from '../../cassette/sqlite/read-interactions.js';
import { createLogger } from '../../logger.js';
import { otlpSettings, type OtlpFlags } from '../../otel/otlp-settings.js';
import { McpStore } from '../../mcp/mcp-store.js';
import { cassetteMcpOperations } from '../../mcp/mcp-spans.js';
import type { SpanTarget } from '../../otel/run-spans.js';
import { resolveCassette } from '../resolve-cassette.js';
import { shellCommand } from '../../shell-command.js';
import { terminalSafe } from '../../terminal-safe.js';

/** `calltape cassettes ls | show | export | import | prune | merge`. */
export function registerCassettesCommand(program: Command): void {
  const cassettes = program
    .command('cassettes')
    .description('list, show, export and import cassettes');
  const run = (action: () => void): void => {
    try {
      action();
    } catch (error) {
      process.exitCode = reportError(error, program.opts<{ debug?: boolean }>().debug === true);
    }
  };
  const runAsync = (action: () => Promise<void>): Promise<void> =>
    action().catch(
      (error: unknown) =>
        void (process.exitCode = reportError(
          error,
          program.opts<{ debug?: boolean }>().debug === true,
        )),
    );

  cassettes
    .command('ls')
    .description('list the cassettes in recordings/ (or --dir)')
    .option('--dir <folder>', 'folder to list', 'recordings')
    .action((flags: { dir: string }) =>
      run(() => {
        const { cassettes: rows, skipped } = listCassettes(flags.dir);
        if (rows.length === 0) process.stdout.write(`no cassettes in ${flags.dir}\n`);
        else {
          const table = new Table({
            head: [
              'cassette',
              'interactions',
              'sessions',
              'tool calls',
              'MCP exchanges',
              'last recorded',
            ],
            style: { head: [], border: [] },
          });
          for (const row of rows)
            table.push([
              row.name,
              row.interactions,
              row.sessions,
              row.toolCalls,
              row.mcpExchanges,
              row.lastRecordedAt === null ? '' : new Date(row.lastRecordedAt).toISOString(),
            ]);
          process.stdout.write(`${table.toString()}\n`);
        }
        for (const { name, reason } of skipped)
          process.stdout.write(`skipped ${name}: ${reason}\n`);
      }),
    );

  cassettes
    .command('show')
    .description(
      'print a cassette as YAML for review, by session and turn, leaving out what changes on every recording (also the git textconv driver for *.sqlite)',
    )
    .argument('<cassette>', 'a name in recordings/ or a path')
    .option('--all', 'every stored column, ids, times and stream timings included')
    .action((name: string, flags: { all?: boolean }) =>
      run(
        () =>
          void process.stdout.write(
            terminalSafe(
              cassetteText(resolveCassette(name, process.cwd()), { all: flags.all === true }),
            ),
          ),
      ),
    );

  cassettes
    .command('export')
    .description(
      'write a cassette as one YAML file per interaction (plus timings), for code review; or as OpenTelemetry GenAI spans (--format otlp)',
    )
    .argument('<cassette>', 'a name in recordings/ or a path')
    .option(
      '--out <folder>',
      'folder to write (default: recordings/<name>/); with --format otlp, the OTLP/JSON file (default: recordings/<name>.otlp.json)',
    )
    .option('--format <format>', 'yaml (default) | otlp')
    .option(
      '--otlp-endpoint <url>',
      'with --format otlp and no --out: send the spans to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_ENDPOINT)',
    )
    .option(
      '--otlp-capture-content',
      'with --format otlp: include messages, tool definitions, arguments and results (as stored: redacted)',
    )
    .action((name: string, flags: ExportFlags) =>
      runAsync(async () => {
        const path = resolveCassette(name, process.cwd());
        const format = flags.format ?? 'yaml';
        if (format === 'otlp') return exportSpans(path, flags);
        if (format !== 'yaml')
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --format: must be one of ["yaml","otlp"] (got "${format}")`,
          );
        const folder = flags.out ?? join('recordings', basename(path, '.sqlite'));
        const count = exportCassette(path, folder);
        process.stdout.write(
          `exported ${count} interaction(s) to ${relative(process.cwd(), folder) || folder}\n`,
        );
      }),
    );

  cassettes
    .command('prune')
    .description(
      'delete the recordings the last run of the cassette neither used nor recorded (lists them first)',
    )
    .argument('<cassette>', 'a name in recordings/ or a path')
    .option('--dry-run', 'only list what would be deleted (the default when not on a terminal)')
    .option('--yes', 'delete without asking')
    .option(
      '--force',
      'prune even when the last run errored or served nothing (prune refuses to decide from such a run)',
    )
    .option(
      '--runs-db <file>',
      'where runs are noted (default: calltape-runs.sqlite beside the cassette)',
    )
    .action((name: string, flags: PruneFlags) =>
      runAsync(() => prune(resolveCassette(name, process.cwd()), flags)),
    );

  cassettes
    .command('merge')
    .description(
      'copy into the first cassette every interaction of the others it does not hold yet (e.g. the cassettes of several shards)',
    )
    .argument('<into>', 'cassette to add to (a name in recordings/ or a path)')
    .argument('<from...>', 'cassettes to copy from, in order')
    .action((into: string, from: string[]) =>
      run(() => {
        const target = resolveCassette(into, process.cwd());
        for (const name of from) {
          const source = resolveCassette(name, process.cwd());
          process.stdout.write(
            `merged ${mergeCassette(target, source)} interaction(s) from ${relative(process.cwd(), source) || source}\n`,
          );
        }
      }),
    );

  cassettes
    .command('import')
    .description('build a cassette from an exported folder')
    .argument('<folder>', 'folder written by `calltape cassettes export`')
    .requiredOption('--out <cassette>', 'cassette to create: a name in recordings/ or a path')
    .action((folder: string, flags: { out: string }) =>
      run(() => {
        const path = resolveCassette(flags.out, process.cwd());
        const count = importCassette(folder, path);
        process.stdout.write(
          `imported ${count} interaction(s) into ${relative(process.cwd(), path) || path}\n`,
        );
      }),
    );
}

interface ExportFlags extends OtlpFlags {
  readonly out?: string;
  readonly format?: string;
}

/** `cassettes export --format otlp`: every recorded session as GenAI spans, to a file or a collector. */
async function exportSpans(path: string, flags: ExportFlags): Promise<void> {
  requireCassette(path);
  const collector =
    flags.out === undefined
      ? otlpSettings(flags.otlpEndpoint, flags.otlpCaptureContent, process.env)
      : undefined;
  const file = flags.out ?? join('recordings', `${basename(path, '.sqlite')}.otlp.json`);
  const target: SpanTarget = collector
    ? { kind: 'collector', settings: collector }
    : { kind: 'file', path: file, captureContent: flags.otlpCaptureContent === true };
  const { RunSpans, collectorName, lostSpansWarning } = await import('../../otel/run-spans.js');
  const spans = new RunSpans(target);
  const interactions = readInteractions(path);
  const store = new McpStore(path, { readonly: true });
  const exchanges = store.list();
  store.close();
  spans.sessions(
    interactions,
    cassetteMcpOperations(interactions, exchanges, {
      content: target.kind === 'collector' ? target.settings.captureContent : target.captureContent,
    }),
  );
  const tally = await spans.finish();
  const where = collector ? collectorName(collector) : relative(process.cwd(), file) || file;
  process.stdout.write(
    `exported ${interactions.length} interaction(s)${exchanges.length > 0 ? ` and ${exchanges.length} MCP exchange(s)` : ''} as ${tally.spans} span(s) to ${where}\n`,
  );
  const warning = collector && lostSpansWarning(tally, collector);
  if (!warning) return;
  // Exporting is this command's whole job: spans lost are its failure (exit 3), said as the run's warning.
  createLogger('error').warn(warning);
  process.exitCode = exitCodes.infrastructure;
}

interface PruneFlags {
  readonly dryRun?: boolean;
  readonly yes?: boolean;
  readonly force?: boolean;
  readonly runsDb?: string;
}

/**
 * Lists what the last noted run of the cassette left unused, then deletes it: with --yes, or
 * after a yes on a terminal. Off a terminal without --yes it is a dry run, so a script never
 * deletes by accident.
 */
async function prune(path: string, flags: PruneFlags): Promise<void> {
  requireCassette(path);
  const database = chosenRunsDatabase(flags.runsDb) ?? runsDatabaseBeside(path);
  const uses = CassetteUseStore.forReading(database);
  const last = uses?.last(resolve(path));
  uses?.close();
  const shown = relative(process.cwd(), path) || path;
  if (!last)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${shown}: no run of this cassette is noted in ${relative(process.cwd(), database) || database}; prune keeps what the last run used or recorded, so it needs one`,
      `Run it first, e.g. calltape replay ${shellCommand(['--cassette', shown])} -- <command> or calltape test <suite>, or pass the --runs-db it noted its runs in.`,
    );
  const since = new Date(last.startedAt).toISOString();
  const refusal = pruneRefusal(last, recordingsSince(path, last.startedAt));
  if (refusal && !flags.force)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${shown}: prune decides from the last run of the cassette (${last.mode}, ${since}), and will not from this one: ${refusal}`,
      `Run it again so that it completes (for calltape test, with the API key its agents need), then prune; or pass --force to delete what that run left unused anyway.`,
    );
  const unused = unusedRecordings(path, last);
  if (unused.length === 0)
    return void process.stdout.write(
      `nothing to prune: the last run (${last.mode}, ${since}) used or recorded every recording in ${shown}\n`,
    );
  for (const item of unused)
    process.stdout.write(
      `  ${item.id}  ${new Date(item.startedAt).toISOString()}  ${item.method} ${item.path}${item.model ? `  ${item.model}` : ''}  session ${item.sessionId}\n`,
    );
  const what = `${unused.length} recording(s) the last run (${last.mode}, ${since}) neither used nor recorded`;
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (flags.dryRun || (!flags.yes && !interactive)) {
    return void process.stdout.write(
      `${what} would be deleted from ${shown}${flags.dryRun ? '' : ' (not a terminal: a dry run; pass --yes to delete)'}\n`,
    );
  }
  if (!flags.yes && !(await confirm(`delete ${what} from ${shown}? [y/N] `)))
    return void process.stdout.write('nothing deleted\n');
  process.stdout.write(
    `deleted ${deleteRecordings(
      path,
      unused.map((item) => item.id),
    )} recording(s) from ${shown}\n`,
  );
}

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}
