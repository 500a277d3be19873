import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { agentRun } from '../support/weather-run.js';

function git(cwd: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('two branches recorded into one cassette', () => {
  it('git merges them with the calltape merge driver: both branches\' recordings replay afterwards', async () => {
    const repo = temporaryFolder();
    git(repo, 'init', '-q', '-b', 'main');
    // What `calltape init` writes, and the driver configuration it prints (with this clone's CLI for npx).
    writeFileSync(join(repo, '.gitattributes'), '*.sqlite diff=calltape merge=calltape\n');
    git(repo, 'config', 'merge.calltape.driver', `${process.execPath} ${cliPath} cassettes merge ./%A ./%B`);
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
    for (const [city, answer] of answers) expect(await agentRun(cassette, 'replay', `What is the weather in ${city}?`)).toBe(answer);
  }, 90_000);
});
