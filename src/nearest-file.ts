import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { distance } from 'fastest-levenshtein';

/**
 * The file beside `path`, with one of `extensions`, whose name (extension aside) is closest to
 * its name — when it is close enough to be a typo (`calltape.yml` for `calltape.yaml`,
 * `exampel` for `example`). Undefined when the folder is missing or nothing is that close.
 * File names in `skip` are never suggested (files of that extension that are something else).
 */
export function nearestFile(
  path: string,
  extensions: readonly string[],
  skip: ReadonlySet<string> = new Set(),
): string | undefined {
  const folder = dirname(path);
  if (!existsSync(folder)) return undefined;
  const stem = (file: string): string => basename(file, extname(file));
  const wanted = stem(path);
  let best: { file: string; distance: number } | undefined;
  for (const file of readdirSync(folder)) {
    if (
      !extensions.includes(extname(file).toLowerCase()) ||
      skip.has(file) ||
      join(folder, file) === path
    )
      continue;
    const apart = distance(wanted, stem(file));
    if (!best || apart < best.distance) best = { file, distance: apart };
  }
  // Beyond a third of the name it is another file, not a typo of this one.
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 3))
    ? join(folder, best.file)
    : undefined;
}
