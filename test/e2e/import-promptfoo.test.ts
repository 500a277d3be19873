import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const fixtures = join(packageRoot, 'src/importers/__fixtures__/promptfoo');
const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** A weather model: Boston and New York get a call, Paris a call to the wrong tool. */
function weatherModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { messages: { content: string }[] };
  const city = /in ([A-Z][\w ]+)\?/.exec(body.messages.at(-1)?.content ?? '')?.[1];
  const location: Record<string, string> = { Boston: 'Boston, MA', 'New York': 'New York, NY' };
  const turn =
    city === 'Paris'
      ? { toolCalls: [{ id: 'call_1', name: 'get_forecast', arguments: '{"location":"Paris"}' }] }
      : city !== undefined && location[city] !== undefined
        ? {
            toolCalls: [
              {
                id: 'call_1',
                name: 'get_current_weather',
                arguments: JSON.stringify({ location: location[city] }),
              },
            ],
          }
        : { text: 'There is no weather service on Mars.' };
  return { kind: 'json', body: chatCompletion(turn) };
}

function statuses(reportPath: string): [string, string][] {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as {
    cases: { test_id: string; status: string }[];
  };
  return report.cases.map((item) => [item.test_id, item.status]);
}

describe('calltape import promptfoo, then calltape test', () => {
  it("promptfoo's openai-tools-call example runs as imported: record, then replay offline, the same verdicts", async () => {
    const folder = temporaryFolder();
    cpSync(join(fixtures, 'openai-tools-call'), join(folder, 'promptfoo'), { recursive: true });
    const imported = await runCliAsync(
      ['import', 'promptfoo', 'promptfoo/promptfooconfig.yaml', '--out', 'suite.yaml'],
      { cwd: folder },
    );
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('wrote promptfoo-judges/test-1.mjs, suite.yaml');
    // Importing twice gives the same bytes.
    const first = readFileSync(join(folder, 'suite.yaml'), 'utf8');
    const judge = readFileSync(join(folder, 'promptfoo-judges/test-1.mjs'), 'utf8');
    await runCliAsync(
      ['import', 'promptfoo', 'promptfoo/promptfooconfig.yaml', '--out', 'suite.yaml'],
      {
        cwd: folder,
      },
    );
    expect(readFileSync(join(folder, 'suite.yaml'), 'utf8')).toBe(first);
    expect(readFileSync(join(folder, 'promptfoo-judges/test-1.mjs'), 'utf8')).toBe(judge);

    const live = await startScriptedUpstream(weatherModel);
    running.push(live);
    const env = { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
    const recorded = await runCliAsync(
      ['test', 'suite.yaml', '--mode', 'record', '--upstream', live.url, '--json', 'record.json'],
      { cwd: folder, env },
    );
    expect(recorded.stderr).not.toContain('Error');
    // Boston passes the code judge (its location is "Boston, MA"), Paris calls the wrong tool.
    const verdicts: [string, string][] = [
      ['test 1', 'pass'],
      ['test 2', 'pass'],
      ['test 3', 'fail'],
    ];
    expect(statuses(join(folder, 'record.json'))).toEqual(verdicts);
    expect(recorded.status).toBe(1);
    const replayed = await runCliAsync(['test', 'suite.yaml', '--json', 'replay.json'], {
      cwd: folder,
      env,
    });
    expect(statuses(join(folder, 'replay.json'))).toEqual(verdicts);
    expect(replayed.status).toBe(1);
  });

  it('the code judge fails a call whose arguments promptfoo would reject (Boston answered as "Boston")', async () => {
    const folder = temporaryFolder();
    cpSync(join(fixtures, 'openai-tools-call'), join(folder, 'promptfoo'), { recursive: true });
    await runCliAsync(
      ['import', 'promptfoo', 'promptfoo/promptfooconfig.yaml', '--out', 'suite.yaml'],
      {
        cwd: folder,
      },
    );
    const live = await startScriptedUpstream(() => ({
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          { id: 'call_1', name: 'get_current_weather', arguments: '{"location":"Boston"}' },
        ],
      }),
    }));
    running.push(live);
    await runCliAsync(
      ['test', 'suite.yaml', '--mode', 'record', '--upstream', live.url, '--json', 'r.json'],
      { cwd: folder, env: { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') } },
    );
    expect(statuses(join(folder, 'r.json'))[0]).toEqual(['test 1', 'fail']);
  });

  it('refuses a file:// include outside the project, naming the field, and writes nothing', async () => {
    const outside = temporaryFolder();
    writeFileSync(join(outside, 'secret.yaml'), '- vars: { q: x }\n');
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'promptfooconfig.yaml'),
      `prompts: ['{{q}}']\nproviders: [openai:gpt-4o-mini]\ntests: file://${join(outside, 'secret.yaml')}\n`,
    );
    const result = await runCliAsync(
      ['import', 'promptfoo', 'promptfooconfig.yaml', '--out', 'suite.yaml'],
      {
        cwd: folder,
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('promptfooconfig.yaml: tests');
    expect(result.stderr).toContain('lies outside the project');
    expect(existsSync(join(folder, 'suite.yaml'))).toBe(false);
  });

  it('bad YAML exits 2 naming the file, and leaves no file behind', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'promptfooconfig.yaml'), 'prompts: [unclosed\n');
    const result = await runCliAsync(
      ['import', 'promptfoo', 'promptfooconfig.yaml', '--out', 'suite.yaml'],
      {
        cwd: folder,
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('promptfooconfig.yaml: not valid YAML');
    expect(readdirSync(folder)).toEqual(['promptfooconfig.yaml']);
  });
});
