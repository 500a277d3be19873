import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import { parseRunReference } from '../ratings/rating.js';

/** The cassettes a proxy's rating page may open: its own, and those under its recordings folder. */
export interface ServedCassettes {
  /** What relative cassette paths resolve against. */
  readonly cwd: string;
  /** The proxy's own cassette. */
  readonly own: string;
  /** The folder whose cassettes (at any depth) are served: the proxy's `recordings/`. */
  readonly recordings: string;
}

/**
 * Refuses a cassette the rating page does not serve, before anything looks at the file: the
 * refusal has one text whether or not the path exists, so the page cannot be used to probe the
 * disk or read another project's prompts. A symbolic link under the recordings folder that leads
 * out of it is refused too. Stored runs (`run:<id>`) come from the proxy's own runs database.
 */
export function requireServedCassette(target: string, served: ServedCassettes): void {
  if (/^run:\d+$/.test(target)) return;
  const path = resolve(served.cwd, target);
  if (path === resolve(served.cwd, served.own)) return;
  const folder = resolve(served.cwd, served.recordings);
  if (within(folder, path) && (!existsSync(path) || within(realFolder(folder), realpathSync(path))))
    return;
  throw new CalltapeError(
    'CONFIG_INVALID',
    `${target}: not a cassette this page serves (the proxy's own cassette, or one under its recordings folder)`,
  );
}

/** The same check for a run reference (`<cassette>#<session>`; a stored run's case passes). */
export function requireServedRun(run: string, served: ServedCassettes): void {
  const reference = parseRunReference(run);
  if (reference?.kind === 'session') requireServedCassette(reference.cassette, served);
}

function within(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
}

function realFolder(folder: string): string {
  return existsSync(folder) ? realpathSync(folder) : folder;
}
