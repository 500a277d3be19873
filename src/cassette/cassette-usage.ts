import type { ProxyMode } from '../config/config.js';

/**
 * What one proxy run did with one cassette. It goes to the runs database, never into the
 * cassette (replay writes nothing there), and is what `calltape cassettes prune` keeps: the
 * recordings the last run served, and everything recorded since it started.
 */
export interface CassetteUsage {
  /** Absolute path of the cassette. */
  readonly cassette: string;
  readonly mode: ProxyMode;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Ids of the recordings served (replay and auto). */
  readonly servedIds: readonly string[];
  /** Requests that found no recording. */
  readonly missed: number;
  /**
   * What went wrong in the run that used the cassette, where the caller knows: cases that ended
   * in ERROR, or 1 for a wrapped command that exited non-zero. `cassettes prune` will not decide
   * from such a run. Undefined: not known (a long-running proxy).
   */
  readonly errors?: number;
  /** A sharded `calltape test` run: which shard of how many (prune keeps what every shard of the split served). */
  readonly shard?: { readonly index: number; readonly count: number };
}
