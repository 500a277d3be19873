import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import type { NamedBlob } from './merge-shards.js';
import type { ShardBlob } from './shard-blob.js';
import { readJsonFile } from '../config/read-json-file.js';

/** The suite's identity in a blob: sha256 of the suite file's bytes (line endings and all). */
export function suiteIdentity(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Writes a shard's blob, creating its folder (a CI job uploads it as an artifact). */
export function writeBlob(file: string, blob: ShardBlob): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(blob)}\n`);
}

/** Reads a blob; a file that is not one is refused naming it (the merge checks the rest). */
export function readBlob(file: string): NamedBlob {
  const parsed = readJsonFile(resolve(file), 'the shard blob');
  const blob = parsed as Partial<ShardBlob> | null;
  const shard = blob?.shard;
  if (
    typeof blob !== 'object' ||
    blob === null ||
    typeof blob.suite_sha256 !== 'string' ||
    !Array.isArray(blob.order) ||
    typeof shard?.index !== 'number' ||
    typeof shard.count !== 'number' ||
    typeof blob.result !== 'object' ||
    !Array.isArray(blob.result?.cases)
  ) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: not a calltape shard blob (written by calltape test <suite> --shard i/n --blob <file>)`,
    );
  }
  return { file, blob: blob as ShardBlob };
}
