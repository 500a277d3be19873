import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedWeatherModel } from '../../examples/scripted-weather-model.js';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import { recordedRows } from '../support/recorded-rows.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { agentRun } from '../support/weather-run.js';

const agent = join(packageRoot, 'dist/examples/weather-agent.js');
/** An agent of one request that prints the status it got. */
const script = `fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","messages":[]}' }).then((r) => console.log(r.status))`;
const question = 'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

describe('calltape record|replay -- <command>', () => {
  it('records an agent run, replays it offline with the same result, and fails a drifted run', async () => {
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const cassette = join(temporaryFolder(), 'weather.sqlite');
    const recorded = await runCliAsync(
      [
        'record',
        '--cassette',
        cassette,
        '--upstream',
        upstream.url,
        '--',
        process.execPath,
        agent,
        question,
      ],
      { env: { OPENAI_API_KEY: 'sk-test-record-0123456789' } },
    );
    await upstream.close();
    expect(recorded.stderr).toContain('calltape record: 3 recorded');
    expect(recorded.status).toBe(0);
    expect(recorded.stdout).toContain('Paris is 12°C and Tokyo 18°C');

    // No upstream, no API key: the agent still gets its answers.
    const replayed = await runCliAsync(
      ['replay', '--cassette', cassette, '--', process.execPath, agent, question],
      { env: { OPENAI_API_KEY: '' } },
    );
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(replayed.stderr).toContain(
      'calltape replay: 3 replayed, 0 missed, 0 unused recording(s)',
    );

    const drifted = await runCliAsync([
      'replay',
      '--cassette',
      cassette,
      '--',
      process.execPath,
      agent,
      'What is the weather in Oslo?',
    ]);
    expect(drifted.status).not.toBe(0);
    expect(drifted.stderr).toContain('0 replayed, 1 missed, 3 unused recording(s)');
    expect(drifted.stderr).toContain('differs at messages[1].content');
  });

  it('exits 1 on a miss even when the command itself exits 0', async () => {
    const cassette = join(temporaryFolder(), 'empty.sqlite');
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    await runCliAsync([
      'record',
      '--cassette',
      cassette,
      '--upstream',
      upstream.url,
      '--',
      process.execPath,
      '-e',
      '0',
    ]);
    await upstream.close();
    const result = await runCliAsync([
      'replay',
      '--cassette',
      cassette,
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.stdout.trim()).toBe('404');
    expect(result.status).toBe(1);
  });

  it('says how many recordings were no answer (regression: an unreachable upstream read as "1 recorded")', async () => {
    const cassette = join(temporaryFolder(), 'down.sqlite');
    const result = await runCliAsync([
      'record',
      '--cassette',
      cassette,
      '--upstream',
      'http://127.0.0.1:1',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.stdout.trim()).toBe('502');
    expect(result.stderr).toContain(
      "calltape record: 1 recorded (1 of them no answer but calltape's own error, such as an unreachable upstream: see the errors above)",
    );
  });

  it('gives an agent without a key a placeholder in auto mode, and a miss that needs the upstream says which key to set', async () => {
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const cassette = join(temporaryFolder(), 'weather.sqlite');
    await agentRun(cassette, 'record', question);
    const auto = (prompt: string) =>
      runCliAsync(
        [
          'auto',
          '--cassette',
          cassette,
          '--upstream',
          upstream.url,
          '--',
          process.execPath,
          agent,
          prompt,
        ],
        { env: { OPENAI_API_KEY: '' } },
      );
    // Recorded: the SDK starts (it would refuse without a key) and the cassette answers.
    const replayed = await auto(question);
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toContain('Paris is 12°C and Tokyo 18°C');
    // Not recorded: refused before the upstream, naming the variable.
    const missing = await auto('What is the weather in Oslo?');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('no API key to record this request: set OPENAI_API_KEY');
    expect(upstream.received).toHaveLength(0);
    await upstream.close();
  });

  it('issue #30: replay --cassette elsewhere keeps the runs database beside the cassette and creates nothing in the working directory', async () => {
    const cassette = join(temporaryFolder(), 'weather.sqlite');
    await agentRun(cassette, 'record');
    const cwd = temporaryFolder();
    // No runs database chosen (an empty variable counts as unset): the default applies.
    const env = { CALLTAPE_RUNS_DB: '', OPENAI_API_KEY: '' };
    const replayed = await runCliAsync(
      ['replay', '--cassette', cassette, '--', process.execPath, agent, question],
      { cwd, env },
    );
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(dirname(cassette), 'calltape-runs.sqlite'))).toBe(true);
    // Prune finds the run from any folder: the notes travel with the cassette.
    const pruned = await runCliAsync(['cassettes', 'prune', cassette], { cwd, env });
    expect(pruned.stdout).toContain('nothing to prune: the last run (replay');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('rejects cassette names that would escape recordings/', async () => {
    const result = await runCliAsync(['replay', '--cassette', '..hidden', '--', 'true']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a valid cassette name');
  });
});

describe('calltape cassettes prune | merge', () => {
  it('prunes what the last replay did not use, and merges cassettes without duplicates', async () => {
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const folder = temporaryFolder();
    const weather = join(folder, 'weather.sqlite');
    const other = join(folder, 'other.sqlite');
    const env = {
      OPENAI_API_KEY: 'sk-test-record-0123456789',
      CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite'),
    };
    const neverRun = await runCliAsync(
      ['cassettes', 'prune', join(packageRoot, 'recordings/bank-demo.sqlite')],
      { env },
    );
    expect(neverRun.status).toBe(2);
    expect(neverRun.stderr).toContain('no run of this cassette is noted');
    // The suggested replay names the cassette by the path given: a bare name would mean recordings/<name>.sqlite.
    expect(neverRun.stderr).toContain(
      'Run it first, e.g. calltape replay --cassette recordings/bank-demo.sqlite -- <command>',
    );
    expect(
      (
        await runCliAsync(
          [
            'record',
            '--cassette',
            weather,
            '--upstream',
            upstream.url,
            '--',
            process.execPath,
            agent,
            question,
          ],
          { env },
        )
      ).status,
    ).toBe(0);
    await agentRun(other, 'record', 'What is the weather in Oslo?');
    await upstream.close();

    // After a record run, what it recorded is in use.
    expect((await runCliAsync(['cassettes', 'prune', weather, '--yes'], { env })).stdout).toContain(
      'nothing to prune: the last run (record',
    );

    const merged = await runCliAsync(['cassettes', 'merge', weather, other], { env });
    expect(merged.stdout).toContain('merged 3 interaction(s)');

    // Replaying only the weather run uses 3 of the 6 recordings…
    const replayed = await runCliAsync(
      ['replay', '--cassette', weather, '--', process.execPath, agent, question],
      { env },
    );
    expect(replayed.stderr).toContain('3 replayed, 0 missed, 3 unused recording(s)');
    const listed = await runCliAsync(['cassettes', 'prune', weather], { env });
    expect(listed.stdout).toContain('3 recording(s) the last run (replay');
    expect(listed.stdout).toContain('not a terminal: a dry run; pass --yes to delete');
    expect(listed.stdout.match(/POST \/v1\/chat\/completions/g)).toHaveLength(3);
    expect((await runCliAsync(['cassettes', 'prune', weather, '--yes'], { env })).stdout).toContain(
      'deleted 3 recording(s)',
    );
    // …and after pruning the same run still replays in full.
    const again = await runCliAsync(
      ['replay', '--cassette', weather, '--', process.execPath, agent, question],
      { env },
    );
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('3 replayed, 0 missed, 0 unused recording(s)');
    // Eight CLI runs, each a process start: room for a loaded CI machine.
  }, 90_000);

  it('keeps what calltape auto replayed and what it recorded', async () => {
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const folder = temporaryFolder();
    const cassette = join(folder, 'weather.sqlite');
    const env = {
      OPENAI_API_KEY: 'sk-test-record-0123456789',
      CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite'),
    };
    // Recorded in process: only the auto run needs noting.
    await agentRun(cassette, 'record', 'What is the weather in Oslo?');
    await agentRun(cassette, 'record', question);
    // auto replays the Paris/Tokyo run and records a new one; only the Oslo run is unused.
    const auto = await runCliAsync(
      [
        'auto',
        '--cassette',
        cassette,
        '--upstream',
        upstream.url,
        '--',
        'sh',
        '-c',
        `"$0" "$1" "$2" && "$0" "$1" "$3"`,
        process.execPath,
        agent,
        question,
        'What is the weather in Lima?',
      ],
      { env },
    );
    await upstream.close();
    expect(auto.stderr).toContain('3 replayed, 0 missed, 3 recorded');
    const pruned = await runCliAsync(['cassettes', 'prune', cassette, '--yes'], { env });
    expect(pruned.stdout).toContain('deleted 3 recording(s)');
    const replayed = await runCliAsync(
      [
        'replay',
        '--cassette',
        cassette,
        '--',
        'sh',
        '-c',
        `"$0" "$1" "$2" && "$0" "$1" "$3"`,
        process.execPath,
        agent,
        question,
        'What is the weather in Lima?',
      ],
      { env },
    );
    expect(replayed.status).toBe(0);
    expect(replayed.stderr).toContain('6 replayed, 0 missed, 0 unused recording(s)');
  }, 90_000);
});

describe('prune after a run that errored or served nothing (regression: an auto run whose agents could not start deleted all 41 recordings)', () => {
  it('refuses, saying why, deletes nothing, and --force overrides', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'weather.sqlite');
    const env = { OPENAI_API_KEY: '', CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
    await agentRun(cassette, 'record', question);
    // No key and an unrecorded question: the agent fails, having been served nothing.
    const failed = await runCliAsync(
      [
        'auto',
        '--cassette',
        cassette,
        '--upstream',
        'http://127.0.0.1:1',
        '--',
        process.execPath,
        agent,
        'What is the weather in Oslo?',
      ],
      { env },
    );
    expect(failed.status).not.toBe(0);
    const refused = await runCliAsync(['cassettes', 'prune', cassette, '--yes'], { env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('will not from this one: it ended with an error');
    expect(refused.stderr).toContain('--force');
    expect(recordedRows(cassette)).toHaveLength(3);
    const forced = await runCliAsync(['cassettes', 'prune', cassette, '--yes', '--force'], { env });
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain('deleted 3 recording(s)');
  }, 60_000);
});

describe('calltape diff -- <command>', () => {
  it('reports where the live tool calls differ from the recording, and exits 1', async () => {
    const upstream = await startScriptedUpstream(scriptedWeatherModel);
    const cassette = join(temporaryFolder(), 'weather.sqlite');
    const env = { OPENAI_API_KEY: 'sk-test-record-0123456789' };
    await runCliAsync(
      [
        'record',
        '--cassette',
        cassette,
        '--upstream',
        upstream.url,
        '--',
        process.execPath,
        agent,
        question,
      ],
      { env },
    );
    const same = await runCliAsync(
      [
        'diff',
        '--cassette',
        cassette,
        '--upstream',
        upstream.url,
        '--',
        process.execPath,
        agent,
        question,
      ],
      { env },
    );
    expect(same.stderr).toContain(
      'calltape diff: 3 compared with their recording, 0 differ, 0 without a recording',
    );
    expect(same.status).toBe(0);

    // The model now answers differently: Tokyo in Fahrenheit.
    upstream.setScript((request, callNumber) => {
      const firstTurn = !request.body.includes('"role":"tool"');
      if (!firstTurn) return scriptedWeatherModel(request, callNumber);
      const turn = {
        toolCalls: [
          { id: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
          {
            id: 'call_tokyo',
            name: 'get_weather',
            arguments: '{"city":"Tokyo","unit":"fahrenheit"}',
          },
        ],
      };
      return { kind: 'sse', body: encodeSse(chatCompletionChunks(turn, seededRandom(1))) };
    });
    const drifted = await runCliAsync(
      [
        'diff',
        '--cassette',
        cassette,
        '--upstream',
        upstream.url,
        '--',
        process.execPath,
        agent,
        question,
      ],
      { env },
    );
    await upstream.close();
    expect(drifted.status).toBe(1);
    // Once the first turn differs the conversation diverges, so the later requests have no recording.
    expect(drifted.stderr).toContain(
      '1 compared with their recording, 1 differ, 2 without a recording',
    );
    expect(drifted.stderr).toContain('call 1 get_weather: unit: "celsius" → "fahrenheit"');
  });
});
