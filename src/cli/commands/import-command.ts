import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { CalltapeError } from '../../errors.js';
import type {
  Importer,
  ImportNote,
  ImporterFile,
  SourceFile,
} from '../../importers/import-types.js';
import { importerOf, importers } from '../../importers/importers.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { compactTable } from './compact-table.js';

/** `calltape import <kind> <file>`: a suite from another tool's eval format, saying what did not convert. */
export function registerImportCommand(program: Command): void {
  const command = program
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
    );
  for (const [option, kinds] of fileOptions())
    command.option(
      `--${option} <file>`,
      kinds.map(([kind, file]) => `${kind}: ${file.description}`).join('; '),
    );
  command.action(async (kind: string, file: string, flags: { [option: string]: unknown }) => {
    process.exitCode = await guardedAction(program, () => runImport(kind, file, flags));
  });
}

/** Every `--<option> <file>` some importer reads, with the kinds that read it. */
function fileOptions(): Map<string, [string, ImporterFile][]> {
  const options = new Map<string, [string, ImporterFile][]>();
  for (const [kind, importer] of Object.entries(importers) as [string, Importer][])
    for (const file of importer.files ?? [])
      options.set(file.option, [...(options.get(file.option) ?? []), [kind, file]]);
  return options;
}

function runImport(kind: string, file: string, flags: { [option: string]: unknown }): number {
  const importer = importerOf(kind);
  if (!importer)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: <kind>: "${kind}" is not a format calltape imports (known: ${Object.keys(importers).join(', ')})`,
    );
  const out = typeof flags['out'] === 'string' ? flags['out'] : undefined;
  const cwd = process.cwd();
  const shown = (path: string): string => relative(cwd, path) || path;
  const source = readSource(resolve(cwd, file), shown);
  const companions = new Map<string, SourceFile>();
  for (const name of importer.companions) {
    const path = join(dirname(resolve(cwd, file)), name);
    if (existsSync(path)) companions.set(name, readSource(path, shown));
  }
  const own = new Set((importer.files ?? []).map((item) => item.option));
  for (const option of fileOptions().keys()) {
    const named = flags[camelCase(option)];
    if (typeof named !== 'string') continue;
    if (!own.has(option))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `command line: --${option}: the ${kind} importer reads no such file`,
      );
    companions.set(option, readSource(resolve(cwd, named), shown));
  }
  const imported = importer.convert(source, companions);
  const text =
    out !== undefined && extname(out).toLowerCase() === '.json'
      ? `${JSON.stringify(imported.suite, null, 2)}\n`
      : toYaml(imported.suite, { lineWidth: 0 });
  const beside = imported.files ?? [];
  if (out === undefined && beside.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --out: this import also writes ${beside.map((item) => item.path).join(', ')} beside the suite; name the suite file with --out`,
    );
  // The table goes where it does not mix with the suite: stderr when the suite is on stdout.
  const table = notesTable(imported.notes);
  if (out === undefined) {
    process.stdout.write(text);
    process.stderr.write(table);
  } else {
    const suitePath = resolve(cwd, out);
    writeAllOrNone([
      { path: suitePath, text },
      ...beside.map((item) => ({ path: join(dirname(suitePath), item.path), text: item.text })),
    ]);
    process.stdout.write(`${table}wrote ${shown(suitePath)}\n`);
  }
  return exitCodes.ok;
}

/** `--possible-answer` arrives as `possibleAnswer` (commander's naming). */
function camelCase(option: string): string {
  return option.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * Writes every file beside its target first, then renames them into place: a failure while
 * writing leaves no half-written suite and no file of the import behind.
 */
function writeAllOrNone(files: readonly { path: string; text: string }[]): void {
  const written: string[] = [];
  try {
    for (const file of files) {
      const temporary = `${file.path}.calltape-${process.pid}.tmp`;
      written.push(temporary);
      writeFileSync(temporary, file.text);
    }
  } catch (error) {
    for (const temporary of written) rmSync(temporary, { force: true });
    throw error;
  }
  files.forEach((file, index) => renameSync(written[index] ?? '', file.path));
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
