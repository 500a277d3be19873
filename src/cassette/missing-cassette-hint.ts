import { relative } from 'node:path';
import { nearestFile } from '../nearest-file.js';

/**
 * The hint for a cassette that does not exist: the nearest existing cassette's name in the same
 * folder (a typo is the usual cause), then how to record it — `recordWith` names the command the
 * user is in, e.g. `calltape record --cassette checkout -- <command>`.
 */
export function missingCassetteHint(path: string, recordWith: string): string;
export function missingCassetteHint(path: string, recordWith?: string): string | undefined;
export function missingCassetteHint(path: string, recordWith?: string): string | undefined {
  const near = nearestCassette(path);
  const shown = near === undefined ? undefined : relative(process.cwd(), near) || near;
  const parts = [
    ...(shown ? [`Did you mean ${shown}?`] : []),
    ...(recordWith ? [`To record it: ${recordWith}.`] : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * The databases calltape keeps in recordings/ beside the cassettes (runs, shadow scores,
 * ratings): `.sqlite` files too, but never a cassette to suggest.
 */
export const ownDatabases: ReadonlySet<string> = new Set([
  'calltape-runs.sqlite',
  'calltape-shadow.sqlite',
  'calltape-ratings.sqlite',
]);

/** The cassette beside `path` whose name is closest to its name, when it is close enough to be a typo. */
export function nearestCassette(path: string): string | undefined {
  return nearestFile(path, ['.sqlite'], ownDatabases);
}
