import { basename, join, relative } from 'node:path';
import Table from 'cli-table3';
import type { Command } from 'commander';
import { cassetteText, exportCassette, importCassette, listCassettes } from '../../cassette/sqlite/cassette-files.js';
import { mergeCassette, pruneUnused } from '../../cassette/sqlite/cassette-maintenance.js';
import { CalltapeError } from '../../errors.js';
import { reportError } from '../exit-codes.js';
import { resolveCassette } from '../resolve-cassette.js';

/** `calltape cassettes ls | show | export | import | prune | merge`. */
export function registerCassettesCommand(program: Command): void {
  const cassettes = program.command('cassettes').description('list, show, export and import cassettes');
  const run = (action: () => void): void => {
    try {
      action();
    } catch (error) {
      process.exitCode = reportError(error, program.opts<{ debug?: boolean }>().debug === true);
    }
  };

  cassettes
    .command('ls')
    .description('list the cassettes in recordings/ (or --dir)')
    .option('--dir <folder>', 'folder to list', 'recordings')
    .action((flags: { dir: string }) =>
      run(() => {
        const rows = listCassettes(flags.dir);
        if (rows.length === 0) return void process.stdout.write(`no cassettes in ${flags.dir}\n`);
        const table = new Table({ head: ['cassette', 'interactions', 'sessions', 'tool calls', 'last recorded'], style: { head: [], border: [] } });
        for (const row of rows) table.push([row.name, row.interactions, row.sessions, row.toolCalls, row.lastRecordedAt === null ? '' : new Date(row.lastRecordedAt).toISOString()]);
        process.stdout.write(`${table.toString()}\n`);
      }),
    );

  cassettes
    .command('show')
    .description('print a cassette as readable YAML (also the git textconv driver for *.sqlite)')
    .argument('<cassette>', 'a name in recordings/ or a path')
    .action((name: string) => run(() => void process.stdout.write(cassetteText(resolveCassette(name, process.cwd())))));

  cassettes
    .command('export')
    .description('write a cassette as one YAML file per interaction (plus timings), for code review')
    .argument('<cassette>', 'a name in recordings/ or a path')
    .option('--out <folder>', 'folder to write (default: recordings/<name>/)')
    .action((name: string, flags: { out?: string }) =>
      run(() => {
        const path = resolveCassette(name, process.cwd());
        const folder = flags.out ?? join('recordings', basename(path, '.sqlite'));
        const count = exportCassette(path, folder);
        process.stdout.write(`exported ${count} interaction(s) to ${relative(process.cwd(), folder) || folder}\n`);
      }),
    );

  cassettes
    .command('prune')
    .description('delete the recordings the last replay of the cassette did not use')
    .argument('<cassette>', 'a name in recordings/ or a path')
    .option('--dry-run', 'only say how many would go')
    .action((name: string, flags: { dryRun?: boolean }) =>
      run(() => {
        const path = resolveCassette(name, process.cwd());
        const pruned = pruneUnused(path, flags.dryRun === true);
        if (pruned === undefined) throw new CalltapeError('CONFIG_INVALID', `${path} has never been replayed; prune keeps what the last replay used`, 'Replay it first: calltape replay --cassette NAME -- <command>.');
        process.stdout.write(flags.dryRun ? `${pruned} recording(s) unused in the last replay would be deleted\n` : `deleted ${pruned} recording(s) unused in the last replay\n`);
      }),
    );

  cassettes
    .command('merge')
    .description('copy into the first cassette every interaction of the second it does not hold yet')
    .argument('<into>', 'cassette to add to (a name in recordings/ or a path)')
    .argument('<from>', 'cassette to copy from')
    .action((into: string, from: string) =>
      run(() => {
        const target = resolveCassette(into, process.cwd());
        const source = resolveCassette(from, process.cwd());
        process.stdout.write(`merged ${mergeCassette(target, source)} interaction(s) from ${relative(process.cwd(), source) || source}\n`);
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
        process.stdout.write(`imported ${count} interaction(s) into ${relative(process.cwd(), path) || path}\n`);
      }),
    );
}
