import { dirname, relative } from 'node:path';
import { nearestFile } from '../nearest-file.js';
import { reservedCassetteNames } from './cassette-file-check.js';

/**
 * The hint for a cassette that does not exist: the nearest existing cassette's name in the same
 * folder or beside one of `alsoBeside` (the cassette a suite names, say), since a typo is
 * the usual cause; then how to record it — `recordWith` names the command the user is in, e.g.
 * `calltape record --cassette checkout -- <command>`.
 */
export function missingCassetteHint(
  path: string,
  recordWith: string,
  alsoBeside?: readonly string[],
): string;
export function missingCassetteHint(
  path: string,
  recordWith?: string,
  alsoBeside?: readonly string[],
): string | undefined;
export function missingCassetteHint(
  path: string,
  recordWith?: string,
  alsoBeside: readonly string[] = [],
): string | undefined {
  const near = nearestCassette(path, alsoBeside);
  const shown = near === undefined ? undefined : relative(process.cwd(), near) || near;
  const parts = [
    ...(shown ? [`Did you mean ${shown}?`] : []),
    ...(recordWith ? [`To record it: ${recordWith}.`] : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** calltape's own databases beside the cassettes (runs, shadow scores, ratings): never suggested for a cassette. */
const ownDatabases: ReadonlySet<string> = new Set(
  reservedCassetteNames.map((name) => `${name}.sqlite`),
);

/**
 * The cassette whose name is closest to `path`'s, when it is close enough to be a typo: beside
 * `path` or beside any of `alsoBeside`.
 */
export function nearestCassette(
  path: string,
  alsoBeside: readonly string[] = [],
): string | undefined {
  return nearestFile(path, ['.sqlite'], {
    skip: ownDatabases,
    alsoIn: alsoBeside.map((other) => dirname(other)),
  });
}
