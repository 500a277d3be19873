import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';

const bank = 'examples/bank/suite.yaml';

interface Report {
  readonly cases: readonly { readonly duration_ms: number }[];
  readonly gates: readonly unknown[];
  readonly runs: readonly unknown[];
  readonly exit_code: number;
}
/** What must not depend on how the suite was split: everything but timings. */
const verdicts = (report: Report): unknown => ({
  cases: report.cases.map((item) => ({ ...item, duration_ms: 0 })),
  gates: report.gates,
  runs: report.runs,
  exit_code: report.exit_code,
});
const blobHash = (file: string): string =>
  (JSON.parse(readFileSync(file, 'utf8')) as { suite_sha256: string }).suite_sha256;
interface TamperedBlob {
  suite_sha256: string;
  order: string[];
  result: { cases: object[] };
}
const readReport = (file: string): Report => JSON.parse(readFileSync(file, 'utf8')) as Report;

describe('calltape test --shard and calltape merge-reports', () => {
  const folder = temporaryFolder();
  const db = join(folder, 'runs.sqlite');
  const shardDb = join(folder, 'shard-runs.sqlite');
  const blobs = [1, 2, 3].map((index) => join(folder, 'blobs', `shard-${index}.json`));
  let whole: { status: number | null; stdout: string };

  beforeAll(async () => {
    const runs = await Promise.all([
      runCliAsync(['test', bank, '--json', join(folder, 'whole.json'), '--runs-db', db]),
      ...blobs.map((blob, at) =>
        runCliAsync(['test', bank, '--shard', `${at + 1}/3`, '--blob', blob, '--runs-db', shardDb]),
      ),
    ]);
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    whole = runs[0] as { status: number | null; stdout: string };
  }, 120_000);

  it('merges 3 shards into the case results, gates and exit code of the unsharded run, and stores it for compare', async () => {
    const merged = await runCliAsync([
      'merge-reports',
      ...blobs,
      '--json',
      join(folder, 'merged.json'),
      '--runs-db',
      db,
    ]);
    expect(merged.status, merged.stderr).toBe(whole.status);
    expect(verdicts(readReport(join(folder, 'merged.json')))).toEqual(
      verdicts(readReport(join(folder, 'whole.json'))),
    );
    expect(merged.stdout).toContain('pass per_tool execute_transfer: 100% (8/8 cases passed)');
    expect(merged.stdout).toMatch(/stored as run #\d+/);
    const compared = await runCliAsync(['compare', '1', '2', '--runs-db', db]);
    expect(compared.status, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('no case changed');
  });

  it('refuses a missing shard with exit 2, saying how many are present', async () => {
    const [one, , three] = blobs as [string, string, string];
    const merged = await runCliAsync(['merge-reports', one, three, '--no-store']);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toContain('2/3 shards present: missing shard 2/3');
  });

  it('refuses a blob of another version of the suite with exit 2, naming the file', async () => {
    // The same suite one edit later, in another folder: same file name, so the same split.
    const edited = join(folder, 'edited', 'suite.yaml');
    const bankFolder = resolve('examples/bank');
    const text = readFileSync(bank, 'utf8')
      .replace('tools: ./tools.json', `tools: ${join(bankFolder, 'tools.json')}`)
      .replace('mocks: [./mocks.yaml]', `mocks: [${join(bankFolder, 'mocks.yaml')}]`)
      .replace(
        'cassette: ../../recordings/bank-demo.sqlite',
        `cassette: ${resolve('recordings/bank-demo.sqlite')}`,
      )
      .replace('cwd: ../..', `cwd: ${resolve('.')}`);
    mkdirSync(join(folder, 'edited'), { recursive: true });
    writeFileSync(edited, `${text}\n# edited\n`);
    const foreign = join(folder, 'foreign-2.json');
    // Its shard 2/3 under a filter holding no case of it: the blob is refused for the suite's version before anything else.
    const shard = await runCliAsync([
      'test',
      edited,
      '--filter',
      'TC-002',
      '--shard',
      '2/3',
      '--blob',
      foreign,
      '--no-store',
    ]);
    expect(shard.status, shard.stderr).toBe(0);
    const [one, , three] = blobs as [string, string, string];
    const merged = await runCliAsync(['merge-reports', one, foreign, three, '--no-store']);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toContain(
      `${foreign}: suite_sha256: ${blobHash(foreign).slice(0, 12)}… is not the sha256 of the suite ${resolve(bank)}`,
    );
  });

  /** A copy of shard `index`'s blob, changed by `edit`, in its own file. */
  function tamperedBlob(index: number, name: string, edit: (blob: TamperedBlob) => void): string {
    const blob = JSON.parse(readFileSync(blobs[index] as string, 'utf8')) as TamperedBlob;
    edit(blob);
    const file = join(folder, name);
    writeFileSync(file, JSON.stringify(blob));
    return file;
  }

  it('refuses a blob whose case status is markup (stored XSS in the merged HTML, issue #30), naming the file and field', async () => {
    const hostile = tamperedBlob(1, 'hostile-2.json', (blob) => {
      (blob.result.cases[0] as { status: string }).status = '<img src=x onerror=alert(1)>';
    });
    const html = join(folder, 'hostile.html');
    const [one, , three] = blobs as [string, string, string];
    const merged = await runCliAsync([
      'merge-reports',
      one,
      hostile,
      three,
      '--html',
      html,
      '--no-store',
    ]);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toContain(
      `${hostile}: result.cases[0].status: must be one of ["pass","fail","error","unreliable"] (got "<img src=x onerror=alert(1)>")`,
    );
    expect(existsSync(html)).toBe(false);
  });

  it('refuses blobs that agree on an invented suite hash (they merged with exit 0, issue #30), naming the blob file and field', async () => {
    const invented = 'f'.repeat(64);
    const forged = [0, 1, 2].map((index) =>
      tamperedBlob(index, `forged-${index + 1}.json`, (blob) => {
        blob.suite_sha256 = invented;
      }),
    );
    const merged = await runCliAsync(['merge-reports', ...forged, '--no-store']);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toContain(
      `${forged[0] ?? ''}: suite_sha256: ffffffffffff… is not the sha256 of the suite ${resolve(bank)}`,
    );
  });

  it("refuses a blob whose case list is not the suite file's, and checks against --suite when given", async () => {
    const reordered = tamperedBlob(1, 'reordered-2.json', (blob) => {
      blob.order = [...blob.order].reverse();
    });
    const [one, , three] = blobs as [string, string, string];
    const merged = await runCliAsync(['merge-reports', one, reordered, three, '--no-store']);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toContain(`${reordered}: order: the test ids are not those of`);
    const elsewhere = await runCliAsync([
      'merge-reports',
      ...blobs,
      '--suite',
      'examples/bank/mocks.yaml',
      '--no-store',
    ]);
    expect(elsewhere.status).toBe(2);
    expect(elsewhere.stderr).toContain(`${one}: suite_sha256:`);
  });

  it('lists with --list --shard exactly the cases each shard runs: disjoint, together the whole suite', async () => {
    const ids = (text: string): string[] =>
      text
        .split('\n')
        .filter((line) => /^ {2}\S/.test(line))
        .map((line) => line.trim().split(/\s+/)[0] ?? '');
    const whole = ids((await runCliAsync(['test', bank, '--list'])).stdout);
    const parts = await Promise.all(
      [1, 2, 3].map(async (index) =>
        ids((await runCliAsync(['test', bank, '--list', '--shard', `${index}/3`])).stdout),
      ),
    );
    expect(parts.every((part) => part.length > 0 && part.length < whole.length)).toBe(true);
    expect(parts.flat().sort()).toEqual([...whole].sort());
    const blob = JSON.parse(readFileSync(blobs[1] as string, 'utf8')) as {
      result: { cases: { test_id: string }[] };
    };
    expect(parts[1]).toEqual(blob.result.cases.map((item) => item.test_id));
  });

  it("notes every shard's cassette use, so prune keeps what the shards together replayed, as after the unsharded run", async () => {
    const kept = (text: string): string[] =>
      text
        .split('\n')
        .filter((line) => /^ {2}\S/.test(line))
        .map((line) => line.trim().split(/\s+/)[0] ?? '');
    const afterWhole = await runCliAsync([
      'cassettes',
      'prune',
      'recordings/bank-demo.sqlite',
      '--dry-run',
      '--runs-db',
      db,
    ]);
    const afterShards = await runCliAsync([
      'cassettes',
      'prune',
      'recordings/bank-demo.sqlite',
      '--dry-run',
      '--runs-db',
      shardDb,
    ]);
    expect(afterShards.status, afterShards.stderr).toBe(0);
    expect(kept(afterShards.stdout)).toEqual(kept(afterWhole.stdout));
  });
});
