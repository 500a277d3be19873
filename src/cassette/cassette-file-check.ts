import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, relative, resolve, isAbsolute } from 'node:path';

/** Names of calltape's own databases beside cassettes: a request may never open one as a cassette. */
export const reservedCassetteNames: readonly string[] = [
  'calltape-runs',
  'calltape-shadow',
  'calltape-ratings',
];

/**
 * Why a per-request cassette file may not be used, or undefined when it may. The file must sit
 * directly in the recordings folder (after resolving links of the folder itself), must not be
 * one of calltape's own databases, and when it exists must be a regular file, not a symlink:
 * a link would let a request write wherever it points.
 */
export function cassetteFileRefusal(
  folder: string,
  path: string,
  reservedPaths: readonly string[],
): string | undefined {
  const name = basename(path).replace(/\.sqlite$/, '');
  if (reservedCassetteNames.includes(name.toLowerCase()))
    return `"${name}" is reserved for calltape's own databases`;
  const absolute = resolve(path);
  if (reservedPaths.some((reserved) => resolve(reserved) === absolute))
    return `${absolute} is one of calltape's own databases, not a cassette`;
  const realFolder = realOrSelf(folder);
  const inside = relative(realFolder, realOrSelf(dirname(absolute)));
  if (inside !== '' || isAbsolute(inside))
    return `${absolute} is not inside the recordings folder ${realFolder}`;
  for (const file of [absolute, `${absolute}-wal`, `${absolute}-shm`]) {
    const stats = lstatOrUndefined(file);
    if (stats && !stats.isFile())
      return `${file} is not a regular file (a symlink or other kind is never followed)`;
  }
  return undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
