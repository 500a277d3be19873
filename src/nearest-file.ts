import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { distance } from 'fastest-levenshtein';
import { closeEnough } from './nearest-name.js';

/** Where else to look, and what never to suggest. */
export interface NearestFileOptions {
  /** File names never suggested (files of that extension that are something else). */
  readonly skip?: ReadonlySet<string>;
  /** Further folders to look in beside `path`'s own; the closest name in any of them wins. */
  readonly alsoIn?: readonly string[];
}

/**
 * The file beside `path`, with one of `extensions`, whose name (extension aside) is closest to
 * its name — when it is close enough to be a typo (`calltape.yml` for `calltape.yaml`,
 * `exampel` for `example`). Undefined when the folder is missing or nothing is that close.
 */
export function nearestFile(
  path: string,
  extensions: readonly string[],
  options: NearestFileOptions = {},
): string | undefined {
  const stem = (file: string): string => basename(file, extname(file));
  const wanted = stem(path);
  let best: { file: string; distance: number } | undefined;
  for (const folder of new Set([dirname(path), ...(options.alsoIn ?? [])])) {
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) {
      const candidate = join(folder, file);
      if (
        !extensions.includes(extname(file).toLowerCase()) ||
        options.skip?.has(file) === true ||
        candidate === path
      )
        continue;
      const apart = distance(wanted, stem(file));
      if (!best || apart < best.distance) best = { file: candidate, distance: apart };
    }
  }
  return best && closeEnough(wanted, best.distance) ? best.file : undefined;
}
