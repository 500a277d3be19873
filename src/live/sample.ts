import fnv1a from '@sindresorhus/fnv1a';

/**
 * Whether a policy evaluates a given item under its sampling rate. Decided by a hash of the
 * policy and the item, not by chance: the same traffic is sampled the same way on every replica
 * and every re-run, so shadow scores stay deterministic.
 */
export function sampled(rate: number | undefined, policy: string, item: string): boolean {
  if (rate === undefined || rate >= 1) return true;
  return Number(fnv1a(`${policy}\u0000${item}`, { size: 32 })) / 2 ** 32 < rate;
}
