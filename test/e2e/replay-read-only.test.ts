import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readInteractions } from '../../src/cassette/sqlite/read-interactions.js';
import { defaultConfig } from '../../src/config/config.js';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { agentRun } from '../support/weather-run.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');
const question = 'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args],
    { cwd, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** The cassette's bytes and which of its companions exist. */
function snapshot(cassette: string): { bytes: Buffer; wal: boolean; shm: boolean } {
  return {
    bytes: readFileSync(cassette),
    wal: existsSync(`${cassette}-wal`),
    shm: existsSync(`${cassette}-shm`),
  };
}

describe('replay never writes to a cassette', () => {
  it('leaves a committed cassette byte-identical, with no -wal or -shm, and git status clean', async () => {
    const repo = temporaryFolder();
    git(repo, 'init', '-q');
    const cassette = join(repo, 'recordings/weather.sqlite');
    const recorded = await agentRun(cassette, 'record');
    // Checkpointed on close: nothing beside the cassette to commit by mistake.
    const before = snapshot(cassette);
    expect(before).toMatchObject({ wal: false, shm: false });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'cassette');

    const replayed = await runCliAsync(
      ['replay', '--cassette', 'weather', '--', process.execPath, agent, question],
      {
        cwd: repo,
        env: { OPENAI_API_KEY: '', CALLTAPE_RUNS_DB: join(temporaryFolder(), 'runs.sqlite') },
      },
    );
    expect(replayed.stderr).toContain('3 replayed, 0 missed');
    expect(replayed.stdout.trim()).toBe(recorded);
    expect(snapshot(cassette)).toEqual(before);
    // A miss writes nothing either.
    expect(await agentRun(cassette, 'replay', 'And Oslo?')).toMatch(/^error: 404/);
    expect(snapshot(cassette)).toEqual(before);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('replays a cassette left in WAL mode, or keyed under other match rules, from memory without touching the file', async () => {
    const cassette = join(temporaryFolder(), 'weather.sqlite');
    const recorded = await agentRun(cassette, 'record');
    // What an older calltape left: the header says WAL (the last connection removed -wal and -shm).
    const db = new Database(cassette);
    db.pragma('journal_mode = WAL');
    db.close();
    const before = snapshot(cassette);
    expect(before.bytes[18]).toBe(2);
    expect(await agentRun(cassette, 'replay')).toBe(recorded);
    expect(snapshot(cassette)).toEqual(before);
    // Other match rules: the recordings are re-keyed in memory, the file is left as it is.
    const match = {
      ...defaultConfig.match,
      ignorePaths: [...defaultConfig.match.ignorePaths, 'temperature'],
    };
    expect(await agentRun(cassette, 'replay', undefined, { match })).toBe(recorded);
    expect(snapshot(cassette)).toEqual(before);
  });

  it('reads the committed demo cassette without creating anything beside it', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'bank-demo.sqlite');
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), cassette);
    const before = snapshot(cassette);
    const listed = await runCliAsync(['cassettes', 'ls', '--dir', folder]);
    expect(listed.stdout).toMatch(/bank-demo\s*│\s*\d+/);
    expect(readInteractions(cassette).length).toBeGreaterThan(0);
    expect(snapshot(cassette)).toEqual(before);
  });
});
