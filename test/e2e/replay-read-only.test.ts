import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { scriptedWeatherModel } from '../../examples/scripted-weather-model.js';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');
const question = 'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** The cassette's bytes and which of its companions exist. */
function snapshot(cassette: string): { bytes: Buffer; wal: boolean; shm: boolean } {
  return { bytes: readFileSync(cassette), wal: existsSync(`${cassette}-wal`), shm: existsSync(`${cassette}-shm`) };
}

describe('replay never writes to a cassette', () => {
  it('leaves a committed cassette byte-identical, with no -wal or -shm, and git status clean', async () => {
    const repo = temporaryFolder();
    git(repo, 'init', '-q');
    const env = { OPENAI_API_KEY: 'sk-test-record-0123456789', CALLTAPE_RUNS_DB: join(temporaryFolder(), 'runs.sqlite') };
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const recorded = await runCliAsync(['record', '--cassette', 'weather', '--upstream', upstream.url, '--', process.execPath, agent, question], { cwd: repo, env });
    await upstream.close();
    expect(recorded.status).toBe(0);
    const cassette = join(repo, 'recordings/weather.sqlite');
    // Checkpointed on close: nothing beside the cassette to commit by mistake.
    const before = snapshot(cassette);
    expect(before).toMatchObject({ wal: false, shm: false });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'cassette');

    const replayed = await runCliAsync(['replay', '--cassette', 'weather', '--', process.execPath, agent, question], { cwd: repo, env: { ...env, OPENAI_API_KEY: '' } });
    expect(replayed.stderr).toContain('3 replayed, 0 missed');
    expect(snapshot(cassette)).toEqual(before);
    // A miss writes nothing either.
    const missed = await runCliAsync(['replay', '--cassette', 'weather', '--', process.execPath, agent, 'Oslo?'], { cwd: repo, env });
    expect(missed.status).toBe(1);
    expect(snapshot(cassette)).toEqual(before);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('replays a cassette left in WAL mode, or keyed under other match rules, from memory without touching the file', async () => {
    const folder = temporaryFolder();
    const env = { OPENAI_API_KEY: 'sk-test-record-0123456789', CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const cassette = join(folder, 'weather.sqlite');
    await runCliAsync(['record', '--cassette', cassette, '--upstream', upstream.url, '--', process.execPath, agent, question], { cwd: folder, env });
    await upstream.close();
    // What an older calltape left: the header says WAL (the last connection removed -wal and -shm).
    const db = new Database(cassette);
    db.pragma('journal_mode = WAL');
    db.close();
    const before = snapshot(cassette);
    expect(before.bytes[18]).toBe(2);
    const replayed = await runCliAsync(['replay', '--cassette', cassette, '--', process.execPath, agent, question], { cwd: folder, env });
    expect(replayed.stderr).toContain('3 replayed, 0 missed');
    expect(snapshot(cassette)).toEqual(before);

    // Other match rules: the recordings are re-keyed in memory, the file is left as it is.
    const config = join(folder, 'proxy.config.json');
    writeFileSync(config, JSON.stringify({ match: { ignorePaths: ['user', 'metadata', 'store', 'service_tier', 'temperature'] } }));
    const rekeyed = await runCliAsync(['replay', '--cassette', cassette, '--config', config, '--', process.execPath, agent, question], { cwd: folder, env });
    expect(rekeyed.stderr).toContain('3 replayed, 0 missed');
    expect(snapshot(cassette)).toEqual(before);
  });

  it('reads the committed demo cassette without creating anything beside it', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'bank-demo.sqlite');
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), cassette);
    const before = snapshot(cassette);
    const listed = await runCliAsync(['cassettes', 'ls', '--dir', folder]);
    expect(listed.stdout).toMatch(/bank-demo\s*│\s*\d+/);
    expect((await runCliAsync(['calls', '--cassette', cassette])).status).toBe(0);
    expect(snapshot(cassette)).toEqual(before);
  });
});
