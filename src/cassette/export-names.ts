import { lstatSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';

/** Interaction ids as calltape makes them (time-ordered UUIDs) and as a text export may carry: they become file names. */
export function isSafeInteractionId(id: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(id);
}

/** The files `cassettes export` writes: `NNNNNN-<id>.yaml` and `NNNNNN-<id>.timings.yaml`. Nothing else is ever deleted. */
export function isExportFileName(name: string): boolean {
  return /^\d{6}-[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}\.yaml$/.test(name);
}

/** `folder/name`, refusing a name that would land anywhere but directly inside `folder`. */
export function fileInside(folder: string, name: string): string {
  const path = join(folder, name);
  const inside = relative(folder, path);
  if (inside !== name || isAbsolute(inside) || inside.includes('/') || inside.includes('\\'))
    throw new Error(`${name}: not a plain file name inside ${folder}`);
  return path;
}

/** Whether a path is a regular file itself (a symlink is never followed, to delete or to overwrite). */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether nothing, or a regular file, is at `path` (so writing there cannot follow a link). */
export function isWritableTarget(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return true;
  }
}
