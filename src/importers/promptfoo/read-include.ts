import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ReadNamedFile, SourceFile } from '../import-types.js';

/** A `file://` reference in a promptfoo config, split from its `:function` suffix (`file://check.js:run`). */
export function includePath(value: string): string | undefined {
  if (!value.startsWith('file://')) return undefined;
  return value.slice('file://'.length);
}

/** Whether the path is a glob promptfoo expands (`file://tests/*.yaml`), which calltape does not. */
export function isGlob(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

/** The file a `file://` reference names, read through the command's reader (which refuses paths outside the project). */
export function readInclude(
  path: string,
  where: string,
  read: ReadNamedFile | undefined,
): SourceFile {
  if (!read)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: file://${path}: this import reads the files the config names; give it a reader`,
    );
  return read(path, where);
}

/** The extension of a path, lower case, without the dot (`yaml`). */
export function extensionOf(path: string): string {
  const base = path.split(/[\\/]/).at(-1) ?? path;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** A YAML or JSON file's value; CONFIG_INVALID naming the file when it does not parse. */
export function parseDocument(file: SourceFile): JsonValue {
  try {
    if (extensionOf(file.path) === 'json') return JSON.parse(file.text) as JsonValue;
    // The yaml package caps alias expansion (maxAliasCount), so a "billion laughs" file fails fast.
    return (parseYaml(file.text) ?? null) as JsonValue;
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file.path}: not valid ${extensionOf(file.path) === 'json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0] ?? ''}`,
    );
  }
}

/** The lines of a JSONL file, each parsed; CONFIG_INVALID naming the file and line. */
export function parseJsonLines(file: SourceFile): JsonValue[] {
  const values: JsonValue[] = [];
  file.text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line) as JsonValue);
    } catch (error) {
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file.path}: line ${index + 1}: not JSON: ${(error as Error).message}`,
      );
    }
  });
  return values;
}

/**
 * A CSV file's rows as maps from column to cell (the header row names the columns). Maps, not
 * objects: a column may be called `__proto__`.
 */
export function parseCsvRows(file: SourceFile): ReadonlyMap<string, string>[] {
  let rows: string[][];
  try {
    rows = parseCsv(file.text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as string[][];
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file.path}: not valid CSV: ${(error as Error).message}`,
    );
  }
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((row) => {
    const cells = new Map<string, string>();
    header.forEach((column, index) => cells.set(column.trim(), row[index] ?? ''));
    return cells;
  });
}
