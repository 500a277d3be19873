import { mergeReplayMisses } from '../report/replay-miss-summary.js';
import { CalltapeError } from '../errors.js';
import type { SuiteRunResult } from '../report/run-result.js';
import type { CaseResult } from '../scoring/case-result.js';
import { evaluateGates, requireEvaluableGates, summariseConfiguration } from './gates.js';
import { shardBlobVersion, type ShardBlob } from './shard-blob.js';

/** A blob as read, with the file it came from (every refusal names it). */
export interface NamedBlob {
  readonly file: string;
  readonly blob: ShardBlob;
}

/**
 * Merges the shards of one suite run into the run an unsharded `calltape test` would have
 * produced: cases back in suite order, run configurations summarised over all of them, and the
 * declared gates evaluated on the whole (a per-tool gate counts every shard's cases). Refuses
 * (exit 2, naming the file) blobs of another suite version or selection, a shard given twice,
 * and a missing shard. Timings: the earliest start and the longest shard (they ran side by side).
 */
export function mergeShards(
  blobs: readonly NamedBlob[],
  baseline: ReadonlyMap<string, number> | undefined,
): SuiteRunResult {
  const [first] = blobs;
  if (!first)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'calltape merge-reports: give the blob of every shard',
    );
  for (const { file, blob } of blobs) {
    if (blob.calltape_shard_blob !== shardBlobVersion)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: not a calltape shard blob of version ${String(shardBlobVersion)} (written by calltape test --shard i/n --blob <file>)`,
      );
    if (blob.suite_sha256 !== first.blob.suite_sha256)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: from another version of the suite than ${first.file} (suite sha256 ${blob.suite_sha256.slice(0, 12)} ≠ ${first.blob.suite_sha256.slice(0, 12)})`,
        'Merge only the blobs of one CI run: every shard must run the same commit of the suite.',
      );
    if (blob.filter !== first.blob.filter)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: ran under another --filter than ${first.file} (${JSON.stringify(blob.filter)} ≠ ${JSON.stringify(first.blob.filter)})`,
      );
    if (blob.shard.count !== first.blob.shard.count)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: shard ${blob.shard.index}/${blob.shard.count} of a split into ${blob.shard.count}, but ${first.file} is of a split into ${first.blob.shard.count}`,
      );
  }
  const count = first.blob.shard.count;
  const seen = new Map<number, string>();
  for (const { file, blob } of blobs) {
    const earlier = seen.get(blob.shard.index);
    if (earlier !== undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: shard ${blob.shard.index}/${count} was given twice (also ${earlier})`,
      );
    seen.set(blob.shard.index, file);
  }
  if (seen.size < count) {
    const missing = Array.from({ length: count }, (_, at) => at + 1).filter(
      (index) => !seen.has(index),
    );
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${seen.size}/${count} shards present: missing shard ${missing.map((index) => `${index}/${count}`).join(', ')} (given: ${blobs.map(({ file }) => file).join(', ')})`,
      'A shard job that failed before writing its blob must be rerun; a merge of part of the suite would gate on part of it.',
    );
  }

  const position = new Map(first.blob.order.map((testId, index) => [testId, index]));
  const runNames = first.blob.result.runs.map((run) => run.run);
  const cases: CaseResult[] = [];
  const owner = new Map<string, string>();
  for (const { file, blob } of blobs) {
    for (const result of blob.result.cases) {
      const index = position.get(result.test_id);
      if (index === undefined || !runNames.includes(result.run))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${file}: case "${result.test_id}" (run "${result.run}") is not in the suite ${first.file} ran`,
        );
      const key = `${result.run}\u0000${result.test_id}`;
      const other = owner.get(key);
      if (other !== undefined)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${file}: case "${result.test_id}" (run "${result.run}") is also in ${other}`,
        );
      owner.set(key, file);
      cases.push({ ...result, index });
    }
  }
  const missingCases = runNames.flatMap((run) =>
    first.blob.order
      .filter((testId) => !owner.has(`${run}\u0000${testId}`))
      .map((testId) => `${testId} (${run})`),
  );
  if (missingCases.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${count}/${count} shards present, but no shard holds case ${missingCases.slice(0, 5).join(', ')}${missingCases.length > 5 ? ', …' : ''}`,
    );
  cases.sort((a, b) => runNames.indexOf(a.run) - runNames.indexOf(b.run) || a.index - b.index);

  const gateFile = first.blob.result.file;
  requireEvaluableGates(gateFile, first.blob.gates, runNames, baseline);
  const gates = evaluateGates(first.blob.gates, cases, runNames, baseline);
  const results = blobs.map(({ blob }) => blob.result);
  // Every shard's misses, told once for the whole run.
  const { replay_misses: _firstShardMisses, ...firstResult } = first.blob.result;
  const misses = mergeReplayMisses(results.map((result) => result.replay_misses));
  return {
    ...firstResult,
    ...(misses ? { replay_misses: misses } : {}),
    started_at:
      results.map((result) => result.started_at).sort()[0] ?? first.blob.result.started_at,
    duration_ms: Math.max(...results.map((result) => result.duration_ms)),
    runs: first.blob.result.runs.map((run) =>
      summariseConfiguration(
        cases,
        run.run,
        run.model,
        run.price ?? null,
        first.blob.gates.unreliable,
      ),
    ),
    cases,
    gates,
    passed: gates.every((gate) => gate.pass) && cases.every((result) => result.status !== 'error'),
  };
}
