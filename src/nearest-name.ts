import { distance } from 'fastest-levenshtein';

/** The name among `names` that `wanted` is most likely a typo of; undefined when none is that close. */
export function nearestName(wanted: string, names: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const apart = distance(wanted, name);
    if (!best || apart < best.distance) best = { name, distance: apart };
  }
  return best && closeEnough(wanted, best.distance) ? best.name : undefined;
}

/** Beyond a third of the name it is another name, not a typo of this one. */
export function closeEnough(wanted: string, apart: number): boolean {
  return apart <= Math.max(2, Math.floor(wanted.length / 3));
}
