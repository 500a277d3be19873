import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { scriptedWeatherModel } from '../../examples/scripted-weather-model.js';
import { packageRoot } from '../../src/package-root.js';
import { cliPath, runCliAsync } from '../support/cli.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');

function git(cwd: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('two branches recorded into one cassette', () => {
  it('git merges them with the calltape merge driver: both branches\' recordings replay afterwards', async () => {
    const repo = temporaryFolder();
    const env = { OPENAI_API_KEY: 'sk-test-record-0123456789', CALLTAPE_RUNS_DB: join(temporaryFolder(), 'runs.sqlite') };
    git(repo, 'init', '-q', '-b', 'main');
    // What `calltape init` writes, and the driver configuration it prints (with this clone's CLI for npx).
    writeFileSync(join(repo, '.gitattributes'), '*.sqlite diff=calltape merge=calltape\n');
    git(repo, 'config', 'merge.calltape.driver', `${process.execPath} ${cliPath} cassettes merge ./%A ./%B`);
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const record = (question: string) => runCliAsync(['record', '--cassette', 'weather', '--upstream', upstream.url, '--', process.execPath, agent, question], { cwd: repo, env });
    expect((await record('What is the weather in Paris?')).status).toBe(0);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'paris');
    git(repo, 'checkout', '-q', '-b', 'tokyo');
    expect((await record('What is the weather in Tokyo?')).status).toBe(0);
    git(repo, 'commit', '-q', '-am', 'tokyo');
    git(repo, 'checkout', '-q', 'main');
    expect((await record('What is the weather in Lima?')).status).toBe(0);
    git(repo, 'commit', '-q', '-am', 'lima');
    await upstream.close();

    const merged = git(repo, 'merge', '-q', '--no-edit', 'tokyo');
    expect(merged.status, merged.output).toBe(0);
    const cassette = join(repo, 'recordings/weather.sqlite');
    const db = new Database(cassette, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM interactions').pluck().get()).toBe(9);
    db.close();
    expect(existsSync(`${cassette}-wal`)).toBe(false);
    expect(git(repo, 'status', '--porcelain').output).toBe('');
    for (const city of ['Paris', 'Tokyo', 'Lima']) {
      const replayed = await runCliAsync(['replay', '--cassette', 'weather', '--', process.execPath, agent, `What is the weather in ${city}?`], { cwd: repo, env });
      expect(replayed.stderr).toContain('3 replayed, 0 missed');
    }
  });
});
