import { readFileSync } from 'node:fs';
import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';
import { parseDetail } from './project-file.js';

/**
 * A JSON file calltape was pointed at (a suite's tools, a schema registry, a baseline report, a
 * shard blob), parsed; a file that is missing or not JSON is a configuration error (exit 2)
 * naming the file and what it was read as, never a stack trace (nor, for a file outside the
 * project, any of its content).
 */
export function readJsonFile(path: string, what: string, root = process.cwd()): JsonValue {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as JsonValue;
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `not valid JSON: ${parseDetail(error, path, root)}`
        : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new CalltapeError('CONFIG_INVALID', `${path}: cannot read ${what}: ${reason}`);
  }
}
