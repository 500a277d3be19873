import { basename, relative } from 'node:path';
import type { Config } from '../../config/config.js';
import { CalltapeError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { terminalReport } from '../../report/terminal-report.js';
import type { CaseResult } from '../../scoring/case-result.js';
import type { Suite } from '../../scoring/suite-types.js';
import { runSuite } from '../../runner/run-suite.js';
import { parseShard, shardSuite } from '../../runner/shard-cases.js';
import { shardBlobVersion } from '../../runner/shard-blob.js';
import { suiteIdentity, writeBlob } from '../../runner/shard-blob-file.js';
import type { OtlpSettings } from '../../otel/otlp-settings.js';
import type { CassetteUsage } from '../../cassette/cassette-usage.js';
import { noteCassetteUse } from '../../runner/cassette-use-store.js';
import { chosenRunsDatabase } from '../../runner/run-store.js';
import type { CodePolicy } from '../../user-code/code-policy.js';
import { exitCodes } from '../exit-codes.js';
import { withRunSpans } from './test-spans.js';

interface ShardFlags {
  readonly shard?: string;
  readonly blob?: string;
  readonly cassette?: string | undefined;
  readonly filter?: string;
  readonly json?: string;
  readonly junit?: string;
  readonly markdown?: string;
  readonly html?: string;
  readonly baseline?: string;
  readonly runsDb?: string;
  readonly store?: boolean;
}

interface ShardContext {
  readonly config: Config;
  readonly mode: 'record' | 'replay' | 'auto';
  readonly concurrency: number | undefined;
  readonly logger: Logger;
  readonly now: Date;
  readonly startProgress: (total: number) => {
    tick: (result: CaseResult) => void;
    stop: () => void;
  };
  readonly otlp: OtlpSettings | undefined;
  readonly code: CodePolicy;
}

/**
 * `calltape test <suite> --shard i/n --blob <file>`: runs the shard's cases and writes the blob.
 * No gate is evaluated and nothing is stored: a part's pass rate says nothing of the whole, so
 * `calltape merge-reports` gates and stores the merged run. Exits 0 once the blob is written.
 */
export async function runShard(
  suites: readonly Suite[],
  flags: ShardFlags,
  context: ShardContext,
): Promise<number> {
  const [suite] = suites;
  if (!suite || suites.length !== 1)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'command line: --shard / --blob: give exactly one suite (run one matrix per suite)',
    );
  if (flags.blob === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      "command line: --shard: needs --blob <file> (the shard's result, for calltape merge-reports)",
    );
  const reports = (['json', 'junit', 'markdown', 'html', 'baseline'] as const).filter(
    (name) => flags[name] !== undefined,
  );
  if (reports.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --${reports[0]}: give it to calltape merge-reports, which reports and gates the whole run`,
    );
  const shard = flags.shard === undefined ? { index: 1, count: 1 } : parseShard(flags.shard);
  const name = basename(suite.file);
  const part = shardSuite(suite, name, shard);
  const progress = context.startProgress(
    part.cases.length * part.runs.length * (part.repeats ?? 1),
  );
  const result = await withRunSpans(context.otlp, suite.name, (spans) =>
    runSuite(
      { ...part, gates: {} },
      {
        config: context.config,
        mode: context.mode,
        ...(context.concurrency !== undefined ? { concurrency: context.concurrency } : {}),
        now: context.now,
        logger: context.logger,
        ...(process.env['OPENAI_API_KEY'] ? { apiKey: process.env['OPENAI_API_KEY'] } : {}),
        onCase: progress.tick,
        spans,
        code: context.code,
        ...(flags.cassette ? { cassetteFlag: flags.cassette } : {}),
        ...(flags.store === false
          ? {}
          : {
              onCassetteUse: (usages: readonly CassetteUsage[]) =>
                noteCassetteUse(
                  chosenRunsDatabase(flags.runsDb),
                  usages.map((usage) => ({ ...usage, shard })),
                ),
            }),
      },
    ).finally(progress.stop),
  );
  const ungated = {
    ...result,
    gates: [],
    passed: result.cases.every((item) => item.status !== 'error'),
  };
  writeBlob(flags.blob, {
    calltape_shard_blob: shardBlobVersion,
    suite_sha256: suiteIdentity(suite.file),
    suite_name: name,
    filter: flags.filter ?? null,
    shard,
    order: suite.cases.map((testCase) => testCase.test_id),
    gates: suite.gates,
    result: ungated,
  });
  process.stdout.write(
    terminalReport(ungated, process.stdout.isTTY === true && !process.env['NO_COLOR']),
  );
  process.stdout.write(
    `shard ${shard.index}/${shard.count}: ${part.cases.length} of ${suite.cases.length} case(s); blob written to ${relative(process.cwd(), flags.blob) || flags.blob} (gates are evaluated by calltape merge-reports)\n`,
  );
  return exitCodes.ok;
}
