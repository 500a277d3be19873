import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CalltapeError } from '../errors.js';

/** A configuration document: `.json` as JSON, anything else as YAML. Unreadable or malformed → CONFIG_INVALID naming the file. */
export function readDocument(path: string, what: string): unknown {
  try {
    const text = readFileSync(path, 'utf8');
    return extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: cannot read the ${what}: ${(error as Error).message}`,
    );
  }
}
