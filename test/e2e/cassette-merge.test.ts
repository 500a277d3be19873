import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { agentRun } from '../support/weather-run.js';

function git(cwd: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args],
    { cwd, encoding: 'utf8' },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('two branches recorded into one cassette', () => {
  it("git merges them with the calltape merge driver: both branches' recordings replay afterwards", async () => {
    const repo = temporaryFolder();
    git(repo, 'init', '-q', '-b', 'main');
    // What `calltape init` writes, and the driver configuration it prints (with this clone's CLI for npx).
    writeFileSync(join(repo, '.gitattributes'), '*.sqlite diff=calltape merge=calltape\n');
    git(
      repo,
      'config',
      'merge.calltape.driver',
      `${process.execPath} ${cliPath} cassettes merge ./%A ./%B`,
    );
    const cassette = join(repo, 'recordings/weather.sqlite');
    const record = (question: string): Promise<string> => agentRun(cassette, 'record', question);
    const answers = new Map<string, string>();
    answers.set('Paris', await record('What is the weather in Paris?'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'paris');
    git(repo, 'checkout', '-q', '-b', 'tokyo');
    answers.set('Tokyo', await record('What is the weather in Tokyo?'));
    git(repo, 'commit', '-q', '-am', 'tokyo');
    git(repo, 'checkout', '-q', 'main');
    answers.set('Lima', await record('What is the weather in Lima?'));
    git(repo, 'commit', '-q', '-am', 'lima');

    const merged = git(repo, 'merge', '-q', '--no-edit', 'tokyo');
    expect(merged.status, merged.output).toBe(0);
    const db = new Database(cassette, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM interactions').pluck().get()).toBe(9);
    db.close();
    expect(existsSync(`${cassette}-wal`)).toBe(false);
    expect(git(repo, 'status', '--porcelain').output).toBe('');
    for (const [city, answer] of answers)
      expect(await agentRun(cassette, 'replay', `What is the weather in ${city}?`)).toBe(answer);
  }, 90_000);
});

describe('cassettes recorded by several shards', () => {
  it("merge into one cassette that replays every shard's recordings", async () => {
    const folder = temporaryFolder();
    const cities = ['Paris', 'Tokyo', 'Lima'];
    const shards = cities.map((_, index) => join(folder, `shard-${index + 1}.sqlite`));
    const answers = await Promise.all(
      cities.map((city, index) =>
        agentRun(shards[index] as string, 'record', `What is the weather in ${city}?`),
      ),
    );
    const [merged, ...others] = shards as [string, ...string[]];
    const run = spawnSync(process.execPath, [cliPath, 'cassettes', 'merge', merged, ...others], {
      encoding: 'utf8',
      cwd: folder,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'merged 3 interaction(s) from shard-2.sqlite',
      'merged 3 interaction(s) from shard-3.sqlite',
    ]);
    const db = new Database(merged, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM interactions').pluck().get()).toBe(9);
    expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(3);
    db.close();
    for (const [index, city] of cities.entries())
      expect(await agentRun(merged, 'replay', `What is the weather in ${city}?`)).toBe(
        answers[index],
      );
    // Merging a shard again adds nothing: ids already held are skipped.
    const again = spawnSync(
      process.execPath,
      [cliPath, 'cassettes', 'merge', merged, shards[1] as string],
      { encoding: 'utf8' },
    );
    expect(again.stdout).toContain('merged 0 interaction(s)');
  }, 90_000);
});
