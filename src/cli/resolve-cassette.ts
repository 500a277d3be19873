import { join } from 'node:path';
import { cassettePath, isValidCassetteName } from '../cassette/cassette-name.js';
import { CalltapeError } from '../errors.js';

/** `--cassette` on the command line: anything with a `/` or ending in `.sqlite` is a path; a bare name lives in `recordings/`. */
export function resolveCassette(name: string, cwd: string): string {
  if (name.includes('/') || name.endsWith('.sqlite')) return name;
  if (!isValidCassetteName(name))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `--cassette: "${name}" is not a valid cassette name (letters, digits, . _ -; it may not leave recordings/)`,
    );
  return cassettePath(join(cwd, 'recordings'), name);
}
