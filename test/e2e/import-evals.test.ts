import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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

const fixtures = join(packageRoot, 'src/importers/__fixtures__');
const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** A chemistry model that calls get_acceptors with the molecule it was asked about, except phenol, which it misreads. */
function acceptorsModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { messages: { role: string; content: string }[] };
  const smiles = /of (\S+) are/.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? '';
  return {
    kind: 'json',
    body: chatCompletion({
      toolCalls: [
        {
          id: 'call_1',
          name: 'get_acceptors',
          arguments: JSON.stringify({ smiles: smiles === 'c1ccccc1O' ? 'c1ccccc1' : smiles }),
        },
      ],
    }),
  };
}

/** The Ragas example's agent: checks the weather in the first turn, converts in the second. */
function weatherModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { messages: { role: string; content: string }[] };
  const users = body.messages.filter((message) => message.role === 'user').length;
  const last = body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'json', body: chatCompletion({ text: 'Done.' }) };
  return {
    kind: 'json',
    body: chatCompletion({
      toolCalls: [
        users === 1
          ? { id: 'call_1', name: 'weather_check', arguments: '{"location":"New York"}' }
          : {
              id: 'call_2',
              name: 'temperature_conversion',
              arguments: '{"temperature_fahrenheit":75}',
            },
      ],
    }),
  };
}

async function upstream(
  model: (request: ReceivedRequest) => ScriptedResponse,
): Promise<ScriptedUpstream> {
  const started = await startScriptedUpstream(model);
  running.push(started);
  return started;
}

describe('calltape import openai-evals | ragas, then calltape test on the imported suite', () => {
  it('an imported OpenAI eval runs as is in direct mode: the item the model gets right passes, the one it misreads fails (exit 1); importing again writes the same bytes', async () => {
    const folder = temporaryFolder();
    const suite = join(folder, 'acceptors.yaml');
    const imported = await runCliAsync([
      'import',
      'openai-evals',
      join(fixtures, 'openai-evals/tool-calls.eval.json'),
      '--items',
      join(fixtures, 'openai-evals/tool-calls.items.jsonl'),
      '--run',
      join(fixtures, 'openai-evals/tool-calls.run.json'),
      '--out',
      suite,
    ]);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('4 converted, 3 approximated, 1 not converted');
    const first = readFileSync(suite, 'utf8');
    // Nothing but the suite is left in the folder: the temporary file was renamed into place.
    expect(readdirSync(folder)).toEqual(['acceptors.yaml']);
    const live = await upstream(acceptorsModel);
    const run = await runCliAsync(
      [
        'test',
        suite,
        '--mode',
        'record',
        '--upstream',
        live.url,
        '--json',
        join(folder, 'report.json'),
      ],
      { env: { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') }, cwd: folder },
    );
    expect(run.status).toBe(1);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      cases: { test_id: string; status: string }[];
    };
    expect(report.cases.map((item) => [item.test_id, item.status])).toEqual([
      ['item-1', 'pass'],
      ['item-2', 'fail'],
    ]);
    // The model was asked the rendered prompt with the run's tools.
    expect(live.received[0]?.body).toContain('Which atoms of CCO are hydrogen-bond acceptors?');
    expect(live.received[0]?.body).toContain('"name":"get_acceptors"');
    const again = await runCliAsync([
      'import',
      'openai-evals',
      join(fixtures, 'openai-evals/tool-calls.eval.json'),
      '--items',
      join(fixtures, 'openai-evals/tool-calls.items.jsonl'),
      '--run',
      join(fixtures, 'openai-evals/tool-calls.run.json'),
      '--out',
      suite,
    ]);
    expect(again.status).toBe(0);
    expect(readFileSync(suite, 'utf8')).toBe(first);
  });

  it("an imported Ragas sample, given the model its note asks for, runs as a two-turn conversation in direct mode and passes on the example's own calls (exit 0)", async () => {
    const folder = temporaryFolder();
    const suite = join(folder, 'weather.yaml');
    const imported = await runCliAsync([
      'import',
      'ragas',
      join(fixtures, 'ragas/tool-call-accuracy.json'),
      '--out',
      suite,
    ]);
    expect(imported.status).toBe(0);
    // The one thing the import says it cannot know ((suite): not converted): which model to ask.
    expect(imported.stdout).toContain('give agent.command');
    writeFileSync(suite, `model: gpt-4.1-mini\n${readFileSync(suite, 'utf8')}`);
    const live = await upstream(weatherModel);
    const run = await runCliAsync(
      [
        'test',
        suite,
        '--mode',
        'record',
        '--upstream',
        live.url,
        '--json',
        join(folder, 'report.json'),
      ],
      { env: { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') }, cwd: folder },
    );
    expect(run.stderr).not.toContain('CONFIG_INVALID');
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      cases: { test_id: string; status: string }[];
    };
    expect(report.cases.map((item) => [item.test_id, item.status])).toEqual([['sample-1', 'pass']]);
  });

  it('bad input exits 2 naming the file and field, and writes nothing; an option the kind does not read is refused', async () => {
    const folder = temporaryFolder();
    const bad = join(folder, 'bad.eval.json');
    writeFileSync(
      bad,
      JSON.stringify({
        data_source_config: { type: 'custom' },
        testing_criteria: [{ type: 'endpoint' }],
      }),
    );
    const out = join(folder, 'suite.yaml');
    const result = await runCliAsync(['import', 'openai-evals', bad, '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '$.testing_criteria[0].type: "endpoint" is not a grader type calltape knows',
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(folder)).toEqual(['bad.eval.json']);
    const wrong = await runCliAsync([
      'import',
      'adk',
      bad,
      '--items',
      join(fixtures, 'openai-evals/tool-calls.items.jsonl'),
    ]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('command line: --items: the adk importer reads no such file');
    // A stranger's typo of a kind is named with what they most likely meant.
    const typo = await runCliAsync(['import', 'promptfo', bad]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('"promptfo" is not a format calltape imports');
    expect(typo.stderr).toContain('Did you mean promptfoo?');
  });
});
