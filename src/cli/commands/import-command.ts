import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { outsideProject } from '../../config/project-file.js';
import { CalltapeError } from '../../errors.js';
import type {
  Importer,
  ImporterFile,
  ImportNote,
  SourceFile,
} from '../../importers/import-types.js';
import { importerOf, importers } from '../../importers/importers.js';
import { nearestName } from '../../nearest-name.js';
import { makePrivateFolder } from '../../private-files.js';
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
    .argument(
      '<file>',
      'the eval file to read (adk: *.evalset.json or *.test.json; promptfoo: promptfooconfig.yaml)',
    )
    .option(
      '--out <suite>',
      'write the suite here (.yaml/.yml, or .json); default: standard output',
    );
  for (const [option, kinds] of fileOptions())
    command.option(
      `--${option} <file>`,
      kinds.map(([kind, named]) => `${kind}: ${named.description}`).join('; '),
    );
  command.action(async (kind: string, file: string, flags: { [option: string]: unknown }) => {
    process.exitCode = await guardedAction(program, () => runImport(kind, file, flags));
  });
}

/** Every `--<option> <file>` some importer reads, with the kinds that read it. */
function fileOptions(): Map<string, [string, ImporterFile][]> {
  const options = new Map<string, [string, ImporterFile][]>();
  for (const [kind, importer] of Object.entries(importers) as [string, Importer][])
    for (const named of importer.files ?? [])
      options.set(named.option, [...(options.get(named.option) ?? []), [kind, named]]);
  return options;
}

function runImport(kind: string, file: string, flags: { [option: string]: unknown }): number {
  const importer = importerOf(kind);
  if (!importer)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: <kind>: "${kind}" is not a format calltape imports (known: ${Object.keys(importers).join(', ')})`,
      ...hintOf(nearestName(kind, Object.keys(importers))),
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
  const own = new Set((importer.files ?? []).map((named) => named.option));
  for (const option of fileOptions().keys()) {
    // commander names `--possible-answer` possibleAnswer.
    const named = flags[option.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())];
    if (typeof named !== 'string') continue;
    if (!own.has(option))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `command line: --${option}: the ${kind} importer reads no such file`,
      );
    companions.set(option, readSource(resolve(cwd, named), shown));
  }
  const folder = dirname(resolve(cwd, file));
  const read = (path: string, where: string): SourceFile => {
    const full = resolve(folder, path);
    // A committed config must not pull in ~/.npmrc: the same rule as modules named in suites.
    if (outsideProject(full, cwd))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: ${path} lies outside the project (${cwd}); copy it into the project to import it`,
      );
    return readSource(full, shown);
  };
  const imported = importer.convert(source, companions, read);
  const text =
    out !== undefined && extname(out).toLowerCase() === '.json'
      ? `${JSON.stringify(imported.suite, null, 2)}\n`
      : // One object used twice is written twice: calltape's suite loader refuses YAML aliases past a few.
        toYaml(imported.suite, { lineWidth: 0, aliasDuplicateObjects: false });
  const files = imported.files ?? [];
  // The table goes where it does not mix with the suite: stderr when the suite is on stdout.
  const table = notesTable(imported.notes);
  if (out === undefined) {
    if (files.length > 0)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `command line: --out: this import writes ${files.length} file(s) beside the suite (${files.map((named) => named.path).join(', ')}); give --out to say where the suite goes`,
      );
    process.stdout.write(text);
    process.stderr.write(table);
  } else {
    const target = resolve(cwd, out);
    writeAll([
      ...files.map((named) => ({ path: resolve(dirname(target), named.path), text: named.text })),
      { path: target, text },
    ]);
    process.stdout.write(
      `${table}wrote ${[...files.map((named) => shown(resolve(dirname(target), named.path))), shown(target)].join(', ')}\n`,
    );
  }
  return exitCodes.ok;
}

/**
 * Writes every file beside its target first, then renames each into place: a failure on the way
 * removes the temporary files and leaves no half-written suite.
 */
function writeAll(files: readonly SourceFile[]): void {
  const temporary = files.map((named) => `${named.path}.calltape-${process.pid}.tmp`);
  try {
    files.forEach((named, index) => {
      makePrivateFolder(dirname(named.path));
      writeFileSync(temporary[index] ?? '', named.text);
    });
    files.forEach((named, index) => renameSync(temporary[index] ?? '', named.path));
  } catch (error) {
    for (const path of temporary) rmSync(path, { force: true });
    throw error;
  }
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

/** A typo's likely meaning, as the error's hint. */
function hintOf(nearest: string | undefined): [string] | [] {
  return nearest === undefined ? [] : [`Did you mean ${nearest}?`];
}
