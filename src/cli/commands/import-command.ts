import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { CalltapeError } from '../../errors.js';
import type { ImportNote, SourceFile } from '../../importers/import-types.js';
import { importerOf, importers } from '../../importers/importers.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { compactTable } from './compact-table.js';

/** `calltape import <kind> <file>`: a suite from another tool's eval format, saying what did not convert. */
export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description(
      `write a calltape suite from another tool's eval data, with a table of what was converted, approximated (how) and not converted (why). Kinds: ${Object.entries(
        importers,
      )
        .map(([kind, importer]) => `${kind} (${importer.description})`)
        .join('; ')}`,
    )
    .argument('<kind>', `the format: ${Object.keys(importers).join(', ')}`)
    .argument('<file>', 'the eval file to read (adk: *.evalset.json or *.test.json)')
    .option(
      '--out <suite>',
      'write the suite here (.yaml/.yml, or .json); default: standard output',
    )
    .action(async (kind: string, file: string, flags: { out?: string }) => {
      process.exitCode = await guardedAction(program, () => runImport(kind, file, flags.out));
    });
}

function runImport(kind: string, file: string, out: string | undefined): number {
  const importer = importerOf(kind);
  if (!importer)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: <kind>: "${kind}" is not a format calltape imports (known: ${Object.keys(importers).join(', ')})`,
    );
  const cwd = process.cwd();
  const shown = (path: string): string => relative(cwd, path) || path;
  const source = readSource(resolve(cwd, file), shown);
  const companions = new Map<string, SourceFile>();
  for (const name of importer.companions) {
    const path = join(dirname(resolve(cwd, file)), name);
    if (existsSync(path)) companions.set(name, readSource(path, shown));
  }
  const imported = importer.convert(source, companions);
  const text =
    out !== undefined && extname(out).toLowerCase() === '.json'
      ? `${JSON.stringify(imported.suite, null, 2)}\n`
      : toYaml(imported.suite, { lineWidth: 0 });
  // The table goes where it does not mix with the suite: stderr when the suite is on stdout.
  const table = notesTable(imported.notes);
  if (out === undefined) {
    process.stdout.write(text);
    process.stderr.write(table);
  } else {
    writeFileSync(resolve(cwd, out), text);
    process.stdout.write(`${table}wrote ${shown(resolve(cwd, out))}\n`);
  }
  return exitCodes.ok;
}

function readSource(path: string, shown: (path: string) => string): SourceFile {
  try {
    return { path: shown(path), text: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${shown(path)}: cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The notes as a table, with a tally. */
function notesTable(notes: readonly ImportNote[]): string {
  const table = compactTable(['outcome', 'item', 'how / why']);
  for (const note of notes) table.push([note.outcome, note.item, note.detail]);
  const count = (outcome: ImportNote['outcome']): number =>
    notes.filter((note) => note.outcome === outcome).length;
  return `${table.toString()}\n${count('converted')} converted, ${count('approximated')} approximated, ${count('not converted')} not converted\n`;
}
