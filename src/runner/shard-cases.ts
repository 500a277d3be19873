import { createHash } from 'node:crypto';
import { CalltapeError } from '../errors.js';
import type { Suite } from '../scoring/suite-types.js';

/** One shard of a split run: the `i` of `--shard i/n` (counting from 1) and the `n`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Reads `--shard i/n`: whole numbers with 1 ≤ i ≤ n. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --shard: give i/n with 1 ≤ i ≤ n, e.g. 2/4 (got "${text}")`,
    );
  return { index, count };
}

/**
 * The shard (1…count) a case belongs to: a hash of the suite's file name and the test id, so
 * every CI runner agrees whatever its checkout path, and adding a case moves no other case.
 */
export function shardOf(suiteName: string, testId: string, count: number): number {
  const digest = createHash('sha256').update(`${suiteName}\u0000${testId}`).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

/**
 * The cases of a suite that fall in a shard. Gates are kept as declared: they are evaluated on
 * the whole by `calltape merge-reports`, never on one shard. A shard may hold no case.
 */
export function shardSuite(suite: Suite, suiteName: string, shard: Shard): Suite {
  return {
    ...suite,
    cases: suite.cases.filter(
      (testCase) => shardOf(suiteName, testCase.test_id, shard.count) === shard.index,
    ),
  };
}
