import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CalltapeError } from '../errors.js';
import { readFailure } from './project-file.js';

/**
 * A configuration document: `.json` as JSON, anything else as YAML. Unreadable or malformed →
 * CONFIG_INVALID naming the file (quoting none of it when it is outside the project, `root`).
 */
export function readDocument(path: string, what: string, root = process.cwd()): unknown {
  try {
    const text = readFileSync(path, 'utf8');
    return extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: cannot read the ${what}: ${readFailure(error, path, root)}`,
    );
  }
}
