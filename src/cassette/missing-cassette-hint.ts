import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { distance } from 'fastest-levenshtein';

/**
 * The hint for a cassette that does not exist: the nearest existing cassette's name in the same
 * folder (a typo is the usual cause), then how to record it — `recordWith` names the command the
 * user is in, e.g. `calltape record --cassette checkout -- <command>`.
 */
export function missingCassetteHint(path: string, recordWith: string): string {
  const near = nearestCassette(path);
  const shown = near === undefined ? undefined : relative(process.cwd(), near) || near;
  return `${shown ? `Did you mean ${shown}? ` : ''}To record it: ${recordWith}.`;
}

/** The `.sqlite` file beside `path` whose name is closest to its name, when it is close enough to be a typo. */
export function nearestCassette(path: string): string | undefined {
  const folder = dirname(path);
  if (!existsSync(folder)) return undefined;
  const wanted = basename(path, '.sqlite');
  let best: { name: string; distance: number } | undefined;
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.sqlite')) continue;
    const name = file.slice(0, -'.sqlite'.length);
    const apart = distance(wanted, name);
    if (!best || apart < best.distance) best = { name: file, distance: apart };
  }
  // Beyond a third of the name it is another cassette, not a typo of this one.
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 3)) ? join(folder, best.name) : undefined;
}
