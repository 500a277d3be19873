import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import type { NamedBlob } from './merge-shards.js';
import type { ShardBlob } from './shard-blob.js';
import { readJsonFile } from '../config/read-json-file.js';
import { schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { loadSuite } from '../suites/load-suite.js';
import type { Suite } from '../scoring/suite-types.js';
import type { BlobSuite } from './check-shard-blobs.js';
import { filterSuite } from './filter-cases.js';
import { writePrivateFile } from '../private-files.js';
import { upgradeCaseResult } from '../report/upgrade-report.js';

/** The suite's identity in a blob: sha256 of the suite file's bytes (line endings and all). */
export function suiteIdentity(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Writes a shard's blob, creating its folder (a CI job uploads it as an artifact). */
export function writeBlob(file: string, blob: ShardBlob): void {
  writePrivateFile(resolve(file), `${JSON.stringify(blob)}\n`);
}

const schemaErrors = schemaValidator('shard-blob.schema.json', ['test-report.schema.json']);

/**
 * Reads a blob, checked against config/shard-blob.schema.json: a file that is not one, or whose
 * fields do not have the types a report prints (a case status that is markup, a count that is
 * text), is refused naming the file and the field (the merge checks the rest).
 */
export function readBlob(file: string): NamedBlob {
  const parsed = upgradeBlob(readJsonFile(resolve(file), 'the shard blob'));
  const [error] = schemaErrors(parsed);
  if (error)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: ${schemaErrorText(error, '', () => undefined)}`,
      'A blob is written by calltape test <suite> --shard i/n --blob <file> (config/shard-blob.schema.json).',
    );
  return { file, blob: parsed as unknown as ShardBlob };
}

/** A blob written before rounds were named rounds: its cases under the new names. */
function upgradeBlob(blob: unknown): unknown {
  if (typeof blob !== 'object' || blob === null) return blob;
  const result = (blob as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return blob;
  const cases = (result as { cases?: unknown }).cases;
  if (!Array.isArray(cases)) return blob;
  return { ...blob, result: { ...result, cases: cases.map(upgradeCaseResult) } };
}

/**
 * The suite a merge checks its blobs against: `given` (merge-reports --suite), else the suite
 * file the first shard ran, which is where CI runners of one checkout have it. A suite that is
 * not there is refused: no blob is merged unchecked.
 */
export function readBlobSuite(
  given: string | undefined,
  blobs: readonly NamedBlob[],
  cwd: string,
): BlobSuite {
  const file = given ?? blobs[0]?.blob.result.file;
  if (file === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'calltape merge-reports: give the blob of every shard',
    );
  const path = resolve(cwd, file);
  if (!existsSync(path))
    throw new CalltapeError(
      'CONFIG_INVALID',
      given === undefined
        ? `${blobs[0]?.file ?? ''}: result.file: the suite ${path} the shards ran is not here`
        : `--suite: ${path}: no such file`,
      'Give calltape merge-reports --suite <file>: the suite file the shards ran, as checked out here.',
    );
  // Loaded only once a blob's hash matched: a file that is not this suite is never parsed as one.
  let suite: Suite | undefined;
  const loaded = (): Suite => (suite ??= loadSuite(path, cwd));
  return {
    file,
    sha256: suiteIdentity(path),
    selection: (filter) => ({
      order: filterSuite(loaded(), filter ?? undefined).cases.map((testCase) => testCase.test_id),
      gates: loaded().gates,
    }),
  };
}
