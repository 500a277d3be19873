/**
 * The order a cassette's sessions are shown in for review: by case id, then by sample ordinal
 * (`<case>#2` is the second sample of `<case>` when a suite repeats its cases), numerically, so
 * `#10` follows `#9`. A session id without a `#<digits>` ending is its case's sample 0.
 * Recording time plays no part: concurrent cases finish in any order.
 */
export function compareSessionIds(left: string, right: string): number {
  const a = splitSample(left);
  const b = splitSample(right);
  if (a.case !== b.case) return a.case < b.case ? -1 : 1;
  if (a.sample !== b.sample) return a.sample < b.sample ? -1 : 1;
  // Equal parts, different ids: `x#02` and `x#2`; still a total order.
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A session id as its case id and sample ordinal. */
export function splitSample(sessionId: string): { readonly case: string; readonly sample: bigint } {
  const match = /#(\d+)$/.exec(sessionId);
  // BigInt: an ordinal longer than a double holds still orders exactly.
  return match?.[1] === undefined
    ? { case: sessionId, sample: 0n }
    : { case: sessionId.slice(0, match.index), sample: BigInt(match[1]) };
}

/** The items ordered by their session with `compareSessionIds`; within a session, as given (a stable sort). */
export function sortBySession<T>(items: readonly T[], sessionOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareSessionIds(sessionOf(a), sessionOf(b)));
}
