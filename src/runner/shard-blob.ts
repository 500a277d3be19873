import type { SuiteRunResult } from '../report/run-result.js';
import type { Gates } from '../scoring/suite-types.js';
import type { Shard } from './shard-cases.js';

/** The blob format's version: `merge-reports` refuses any other. */
export const shardBlobVersion = 1;

/** What `calltape test --shard i/n --blob <file>` writes: everything `merge-reports` needs to rebuild the unsharded run. */
export interface ShardBlob {
  readonly calltape_shard_blob: typeof shardBlobVersion;
  /** The suite's identity: sha256 of the suite file's bytes. Shards of different versions never merge. */
  readonly suite_sha256: string;
  /** The suite file's name, the part of the path every CI runner shares (what cases are hashed by). */
  readonly suite_name: string;
  /** The `--filter` the shard ran under (null: none); shards of different selections never merge. */
  readonly filter: string | null;
  readonly shard: Shard;
  /** Every test id of the (filtered) suite in suite order, so the merge restores it. */
  readonly order: readonly string[];
  /** The gates as declared, evaluated by the merge on every shard's cases. */
  readonly gates: Gates;
  /** This shard's run: its cases, run configurations and timings; `gates` is empty (no gate is evaluated on a part). */
  readonly result: SuiteRunResult;
}
