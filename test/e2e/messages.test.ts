import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { agentRun } from '../support/weather-run.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');
const question = 'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

describe('messages that point the right way', () => {
  it('a missing cassette suggests the nearest name, and hints name the command the user is in', async () => {
    const folder = temporaryFolder();
    const env = {
      OPENAI_API_KEY: 'sk-test-record-0123456789',
      CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite'),
    };
    await agentRun(join(folder, 'recordings/weather.sqlite'), 'record');

    const typo = await runCliAsync(
      ['replay', '--cassette', 'wether', '--', process.execPath, agent, question],
      { cwd: folder, env },
    );
    expect(typo.status).toBe(3);
    expect(typo.stderr).toContain('recordings/wether.sqlite: no such cassette to replay');
    expect(typo.stderr).toContain(
      `hint: Did you mean recordings/weather.sqlite? To record it: calltape record --cassette wether -- ${process.execPath} ${agent} '${question}'`,
    );
    // Every command that reads a cassette names the nearest one, not only replay.
    for (const command of [
      ['calls', '--cassette', 'wether'],
      ['cassettes', 'export', 'wether', '--format', 'otlp'],
    ]) {
      const read = await runCliAsync(command, { cwd: folder, env });
      expect(read.status).toBe(2);
      expect(read.stderr).toContain('wether.sqlite: no such cassette');
      expect(read.stderr).toContain('hint: Did you mean recordings/weather.sqlite?');
    }
    const unrelated = await runCliAsync(['replay', '--cassette', 'invoices', '--', 'true'], {
      cwd: folder,
      env,
    });
    expect(unrelated.stderr).not.toContain('Did you mean');

    // A miss in `calltape replay` is told to re-record with `calltape record`, not `--mode record`.
    const missed = await runCliAsync(
      ['replay', '--cassette', 'weather', '--', process.execPath, agent, 'And Oslo?'],
      { cwd: folder, env },
    );
    expect(missed.status).toBe(1);
    expect(missed.stderr).toContain(
      `Record what is missing with calltape record --cassette weather -- ${process.execPath} ${agent} 'And Oslo?'`,
    );
    expect(missed.stderr).not.toContain('--mode record');

    // A runs database that cannot be written is a warning, never the run's failure.
    const unnoted = await runCliAsync(
      ['replay', '--cassette', 'weather', '--', process.execPath, agent, question],
      { cwd: folder, env: { ...env, CALLTAPE_RUNS_DB: '/dev/null/runs.sqlite' } },
    );
    expect(unnoted.status).toBe(0);
    expect(unnoted.stderr).toContain(
      'calltape: could not note this run in /dev/null/runs.sqlite (cassettes prune will not know what it used)',
    );
  }, 90_000);

  it('suggested commands lose their quoting: the record command in a hint pastes back as the argv given', async () => {
    const folder = temporaryFolder();
    const command = ['sh', '-c', 'STREAM=1 node agent.mjs "What is the weather in Paris?"'];
    const missing = await runCliAsync(['replay', '--cassette', 'checkout', '--', ...command], {
      cwd: folder,
      env: { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') },
    });
    expect(missing.status).toBe(3);
    const suggested = /To record it: calltape record (.*) \(or calltape auto/.exec(
      missing.stderr,
    )?.[1];
    expect(suggested, missing.stderr).toBe(
      `--cassette checkout -- sh -c 'STREAM=1 node agent.mjs "What is the weather in Paris?"'`,
    );
    const parsed = spawnSync('sh', ['-c', `printf '%s\\0' ${suggested ?? ''}`], {
      encoding: 'utf8',
    });
    expect(parsed.stdout.split('\0').slice(0, -1)).toEqual([
      '--cassette',
      'checkout',
      '--',
      ...command,
    ]);
  });

  it('a mistyped calltape test --cassette is told to record without --cassette and gets no "Did you mean"', async () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'suites/recordings'), { recursive: true });
    mkdirSync(join(folder, 'recordings'));
    writeFileSync(join(folder, 'suites/recordings/shop.sqlite'), '');
    writeFileSync(join(folder, 'recordings/calltape-runs.sqlite'), '');
    writeFileSync(
      join(folder, 'suites/shop.yaml'),
      'name: shop\nmodel: gpt-4o-mini\ncassette: recordings/shop.sqlite\ncases:\n  - test_id: weather\n    prompt: What is the weather in Paris?\n    expected_tool: get_weather\n',
    );
    const typo = await runCliAsync(['test', 'suites/shop.yaml', '--cassette', 'shp'], {
      cwd: folder,
      env: { CALLTAPE_RUNS_DB: join(folder, 'recordings/calltape-runs.sqlite') },
    });
    expect(typo.status).toBe(3);
    expect(typo.stderr).toContain('recordings/shp.sqlite: no such cassette to replay');
    expect(typo.stderr).toContain(
      'hint: Did you mean suites/recordings/shop.sqlite? To record it: calltape test suites/shop.yaml --cassette shp --mode record.',
    );
    // --list reads no cassette, so a cassette still to be recorded is no error there.
    const listed = await runCliAsync(['test', 'suites/shop.yaml', '--cassette', 'shp', '--list'], {
      cwd: folder,
    });
    expect(listed.status, listed.stderr).toBe(0);
  });
});
