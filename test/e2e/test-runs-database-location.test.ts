import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'shell-quote';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(() => ({
    kind: 'json',
    body: chatCompletion({
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    }),
  }));
});
afterAll(() => upstream.close());

describe('issue #30: calltape test run from another folder created ./recordings/calltape-runs.sqlite there', () => {
  it('stores the run beside the suite’s cassette, creates nothing in the working directory, and prints a runs show command that works from there', async () => {
    const project = temporaryFolder();
    const suite = join(project, 'weather.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'weather',
        model: 'm',
        cassette: 'cassettes/weather.sqlite',
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        ],
        cases: [{ test_id: 'paris', prompt: 'Weather in Paris?', expected_tool: 'get_weather' }],
      }),
    );
    const elsewhere = temporaryFolder();
    // No runs database chosen (an empty variable counts as unset): the default applies.
    const env = { CALLTAPE_RUNS_DB: '', OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' };
    const recorded = await runCliAsync(
      ['test', suite, '--mode', 'record', '--upstream', upstream.url],
      { cwd: elsewhere, env },
    );
    expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
    const replayed = await runCliAsync(['test', suite], { cwd: elsewhere, env });
    expect(replayed.status, replayed.stdout + replayed.stderr).toBe(0);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(project, 'cassettes/calltape-runs.sqlite'))).toBe(true);
    // The replay found the recording run as its baseline in the same database.
    expect(replayed.stdout).toContain('Compared with run #1');
    const command = /\(calltape (runs show 2 --runs-db [^)]+)\)/.exec(replayed.stdout)?.[1];
    expect(command).toBeDefined();
    const shown = await runCliAsync(parse(command ?? '') as string[], { cwd: elsewhere, env });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('weather');
  }, 60_000);
});
