import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';
import type { SourceFile } from './import-types.js';

/** A JSON object read from a source; its keys are data (read with `own`, never `key in`). */
export type JsonObject = { readonly [key: string]: JsonValue };

/** Throws CONFIG_INVALID naming the file and the JSON path of the bad field. */
export type Fail = (path: string, expected: string) => never;

/** The `fail` of one file: `x.json: $.items[2].name: missing or not a text`. */
export function failIn(file: string): Fail {
  return (path, expected) => {
    throw new CalltapeError('CONFIG_INVALID', `${file}: ${path}: ${expected}`);
  };
}

/** The file's text as JSON; bad JSON names the file. */
export function parseJsonSource(file: SourceFile): JsonValue {
  try {
    return JSON.parse(file.text) as JsonValue;
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file.path}: not JSON: ${(error as Error).message}`,
    );
  }
}

/** Each non-blank line of a JSONL file, with its 1-based line number; a bad line is named. */
export function parseJsonLines(file: SourceFile): { line: number; value: JsonValue }[] {
  const rows: { line: number; value: JsonValue }[] = [];
  file.text.split(/\r?\n/).forEach((text, index) => {
    if (text.trim() === '') return;
    try {
      rows.push({ line: index + 1, value: JSON.parse(text) as JsonValue });
    } catch (error) {
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file.path}: line ${index + 1}: not JSON: ${(error as Error).message}`,
      );
    }
  });
  return rows;
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or a CONFIG_INVALID naming its path. */
export function objectAt(value: JsonValue | undefined, path: string, fail: Fail): JsonObject {
  return isJsonObject(value) ? value : fail(path, 'expected an object');
}

/** An own field of an object, by its name or an alias (camelCase spellings); undefined when absent. */
export function own(item: JsonObject, name: string, alias?: string): JsonValue | undefined {
  if (Object.hasOwn(item, name)) return item[name];
  if (alias !== undefined && Object.hasOwn(item, alias)) return item[alias];
  return undefined;
}

/** A required non-empty text field, or a CONFIG_INVALID naming it. */
export function textAt(item: JsonObject, name: string, path: string, fail: Fail): string {
  const value = own(item, name);
  return typeof value === 'string' && value.length > 0
    ? value
    : fail(`${path}.${name}`, 'missing or not a text');
}
