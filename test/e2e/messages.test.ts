import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedWeatherModel } from '../../examples/scripted-weather-model.js';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync, startCliProxy } from '../support/cli.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');
const question = 'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

describe('messages that point the right way', () => {
  it('a missing cassette suggests the nearest name, and hints name the command the user is in', async () => {
    const folder = temporaryFolder();
    const env = { OPENAI_API_KEY: 'sk-test-record-0123456789', CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    expect((await runCliAsync(['record', '--cassette', 'weather', '--upstream', upstream.url, '--', process.execPath, agent, question], { cwd: folder, env })).status).toBe(0);
    await upstream.close();

    const typo = await runCliAsync(['replay', '--cassette', 'wether', '--', process.execPath, agent, question], { cwd: folder, env });
    expect(typo.status).toBe(3);
    expect(typo.stderr).toContain('recordings/wether.sqlite: no such cassette to replay');
    expect(typo.stderr).toContain(`hint: Did you mean recordings/weather.sqlite? To record it: calltape record --cassette wether -- ${process.execPath} ${agent} ${question}`);
    const unrelated = await runCliAsync(['replay', '--cassette', 'invoices', '--', 'true'], { cwd: folder, env });
    expect(unrelated.stderr).not.toContain('Did you mean');

    // A miss in `calltape replay` is told to re-record with `calltape record`, not `--mode record`.
    const missed = await runCliAsync(['replay', '--cassette', 'weather', '--', process.execPath, agent, 'And Oslo?'], { cwd: folder, env });
    expect(missed.status).toBe(1);
    expect(missed.stderr).toContain(`Record what is missing with calltape record --cassette weather -- ${process.execPath} ${agent} And Oslo?`);
    expect(missed.stderr).not.toContain('--mode record');
  });

  it('the startup banner says what each mode does with the upstream and the cassette', async () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'recordings'));
    // Replay needs a cassette that exists: record an empty one first.
    const recording = await startCliProxy(['--mode', 'record', '--cassette', 'recordings/a.sqlite'], { cwd: folder });
    recording.child.kill('SIGTERM');
    await recording.exited;
    const runs = [
      { args: ['--mode', 'passthrough'], says: 'mode passthrough · cassette none (nothing is recorded)' },
      { args: ['--mode', 'record', '--cassette', 'recordings/a.sqlite'], says: 'mode record · cassette recordings/a.sqlite (every round trip is recorded)' },
      { args: ['--mode', 'replay', '--cassette', 'recordings/a.sqlite'], says: 'upstream none (offline) · mode replay · cassette recordings/a.sqlite (read only' },
      { args: ['--mode', 'auto', '--cassette', 'recordings/a.sqlite'], says: 'mode auto · cassette recordings/a.sqlite (replayed, missing ones recorded)' },
    ];
    for (const { args, says } of runs) {
      const proxy = await startCliProxy(args, { cwd: folder });
      proxy.child.kill('SIGTERM');
      expect(await proxy.exited).toBe(0);
      expect(proxy.stdout()).toContain(says);
    }
  });
});
