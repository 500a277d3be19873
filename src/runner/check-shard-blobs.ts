import { CalltapeError } from '../errors.js';
import type { Gates } from '../scoring/suite-types.js';
import { stableStringify } from '../stable-stringify.js';
import type { NamedBlob } from './merge-shards.js';

/** The suite file a merge checks its blobs against, as this runner reads it. */
export interface BlobSuite {
  /** The suite file, as named in messages. */
  readonly file: string;
  /** sha256 of its bytes. */
  readonly sha256: string;
  /** Its test ids in suite order and its gates, under a shard's `--filter` (null: none). */
  readonly selection: (filter: string | null) => {
    readonly order: readonly string[];
    readonly gates: Gates;
  };
}

/**
 * Refuses (exit 2, naming the blob file and the field) a blob that was not written by a shard of
 * `suite`: another sha256, or a case list or gates that are not the suite's. A blob is a file
 * anyone can write; only what matches the suite checked out here may be gated and stored.
 */
export function requireBlobsOfSuite(blobs: readonly NamedBlob[], suite: BlobSuite): void {
  for (const { file, blob } of blobs) {
    if (blob.suite_sha256 !== suite.sha256)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: suite_sha256: ${blob.suite_sha256.slice(0, 12)}… is not the sha256 of the suite ${suite.file} (${suite.sha256.slice(0, 12)}…)`,
        'Merge the blobs of shards that ran this commit of the suite; give merge-reports --suite <file> when the suite is elsewhere here than on the shard runners.',
      );
    const expected = suite.selection(blob.filter);
    if (stableStringify(blob.order) !== stableStringify(expected.order))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: order: the test ids are not those of ${suite.file}${blob.filter === null ? '' : ` under --filter ${JSON.stringify(blob.filter)}`}`,
      );
    if (stableStringify(blob.gates) !== stableStringify(expected.gates))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: gates: not the gates ${suite.file} declares`,
      );
  }
}
