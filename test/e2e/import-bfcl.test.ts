import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { loadSuite } from '../../src/suites/load-suite.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const fixtures = join(packageRoot, 'src/importers/__fixtures__/bfcl');
const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

interface Verdict {
  readonly id: string;
  readonly category: string;
  readonly output: number;
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
  readonly valid: boolean;
}

const known = JSON.parse(
  readFileSync(join(fixtures, 'known-disagreements.json'), 'utf8'),
) as object;

/** Per question of the category, one of BFCL's judged outputs (a different kind for each question, none of the known disagreements). */
function chosenOutputs(category: string): Map<string, Verdict> {
  const verdicts = gunzipSync(readFileSync(join(fixtures, 'bfcl-verdicts.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Verdict)
    .filter(
      (verdict) =>
        verdict.category === category && !Object.hasOwn(known, `${verdict.id}#${verdict.output}`),
    );
  const chosen = new Map<string, Verdict>();
  const ids = [...new Set(verdicts.map((verdict) => verdict.id))];
  ids.forEach((id, index) => {
    const outputs = verdicts.filter((verdict) => verdict.id === id);
    const output = outputs[index % outputs.length];
    if (output) chosen.set(id, output);
  });
  return chosen;
}

/** A model that answers each question with the output chosen for it, found by the question's first message. */
function recordedModel(category: string, chosen: ReadonlyMap<string, Verdict>) {
  const questions = readFileSync(join(fixtures, `BFCL_v4_${category}.json`), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; question: { content: string }[][] });
  const byMessage = new Map(
    questions.map((question) => [JSON.stringify(question.question[0]), question.id]),
  );
  return (request: ReceivedRequest): ScriptedResponse => {
    const body = JSON.parse(request.body) as { messages: unknown[] };
    const id = byMessage.get(JSON.stringify(body.messages)) ?? '';
    const calls = chosen.get(id)?.calls ?? [];
    return {
      kind: 'json',
      body: chatCompletion(
        calls.length === 0
          ? { text: 'No function fits.' }
          : {
              toolCalls: calls.map((call, index) => ({
                id: `call_${index}`,
                name: call.name,
                arguments: call.arguments,
              })),
            },
      ),
    };
  };
}

describe('calltape import bfcl, then calltape test', () => {
  it('imports a category with its answers found beside it, byte-identically twice; the suite records and replays in direct mode with the verdicts BFCL gave', async () => {
    const folder = temporaryFolder();
    const category = 'live_parallel_multiple';
    const file = `BFCL_v4_${category}.json`;
    cpSync(join(fixtures, file), join(folder, file));
    mkdirSync(join(folder, 'possible_answer'));
    cpSync(join(fixtures, 'possible_answer', file), join(folder, 'possible_answer', file));
    const env = { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
    const imported = await runCliAsync(['import', 'bfcl', file, '--out', 'suite.yaml'], {
      cwd: folder,
      env,
    });
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/\n\d+ converted, \d+ approximated, 0 not converted\n/);
    const once = readFileSync(join(folder, 'suite.yaml'), 'utf8');
    await runCliAsync(['import', 'bfcl', file, '--out', 'suite.yaml'], { cwd: folder, env });
    expect(readFileSync(join(folder, 'suite.yaml'), 'utf8')).toBe(once);

    const chosen = chosenOutputs(category);
    const model = await startScriptedUpstream(recordedModel(category, chosen));
    running.push(model);
    const recorded = await runCliAsync(
      ['test', 'suite.yaml', '--mode', 'record', '--upstream', model.url, '--json', 'record.json'],
      { cwd: folder, env },
    );
    expect(model.received).toHaveLength(chosen.size);
    const expected = Object.fromEntries(
      [...chosen].map(([id, verdict]) => [id, verdict.valid ? 'pass' : 'fail']),
    );
    const statuses = (report: string): { [id: string]: string } =>
      Object.fromEntries(
        (
          JSON.parse(readFileSync(join(folder, report), 'utf8')) as {
            cases: { test_id: string; status: string }[];
          }
        ).cases.map((item) => [item.test_id, item.status]),
      );
    expect(statuses('record.json')).toEqual(expected);
    // Some of the chosen outputs fail BFCL's check, so the run fails.
    expect(Object.values(expected)).toContain('fail');
    expect(recorded.status).toBe(1);
    // Offline, from the cassette, as CI runs it.
    await model.close();
    const replayed = await runCliAsync(['test', 'suite.yaml', '--json', 'replay.json'], {
      cwd: folder,
      env,
    });
    expect(statuses('replay.json')).toEqual(expected);
    expect(replayed.status).toBe(1);
    // Four CLI runs on a shared machine.
  }, 90_000);

  it('--answers names answers kept elsewhere; without them the error says where it looked (exit 2); another kind refuses --answers', async () => {
    const folder = temporaryFolder();
    const file = 'BFCL_v4_simple_python.json';
    cpSync(join(fixtures, file), join(folder, file));
    cpSync(join(fixtures, 'possible_answer', file), join(folder, 'answers.json'));
    const missing = await runCliAsync(['import', 'bfcl', file], { cwd: folder });
    expect(missing.stderr).toContain(
      `${file}: its possible answers: possible_answer/${file}: cannot read it: ENOENT; BFCL keeps them in possible_answer/${file} beside the category file, or name the file with --answers`,
    );
    expect(missing.status).toBe(2);
    const given = await runCliAsync(['import', 'bfcl', file, '--answers', 'answers.json'], {
      cwd: folder,
    });
    expect(given.status).toBe(0);
    expect(given.stdout).toContain('test_id: simple_python_0');
    renameSync(join(folder, file), join(folder, 'x.test.json'));
    const adk = await runCliAsync(['import', 'adk', 'x.test.json', '--answers', 'answers.json'], {
      cwd: folder,
    });
    expect(adk.stderr).toContain('command line: --answers: the adk importer reads no such file');
    expect(adk.status).toBe(2);
  }, 60_000);

  it('writes a large category without YAML aliases, so calltape test loads it (regression: objects used twice became aliases, and the loader refused the suite past 100 of them)', async () => {
    const folder = temporaryFolder();
    const count = 120;
    const question = (index: number): string =>
      JSON.stringify({
        id: `simple_${index}`,
        question: [[{ role: 'user', content: `Book room ${index}.` }]],
        function: [
          {
            name: 'book',
            parameters: {
              type: 'dict',
              properties: {
                tags: { type: 'array', items: { type: 'string' } },
                room: { type: 'dict' },
              },
              required: ['tags'],
            },
          },
        ],
      });
    // `room` may be left out: its alternative repeats `tags`, and `unit` repeats the omitted marker.
    const answer = (index: number): string =>
      JSON.stringify({
        id: `simple_${index}`,
        ground_truth: [{ book: { tags: [['quiet']], room: ['', { floor: [index, ''] }] } }],
      });
    const lines = (make: (index: number) => string): string =>
      `${Array.from({ length: count }, (_, index) => make(index)).join('\n')}\n`;
    writeFileSync(join(folder, 'BFCL_v4_simple.json'), lines(question));
    mkdirSync(join(folder, 'possible_answer'));
    writeFileSync(join(folder, 'possible_answer', 'BFCL_v4_simple.json'), lines(answer));
    const imported = await runCliAsync(
      ['import', 'bfcl', 'BFCL_v4_simple.json', '--out', 'suite.yaml'],
      {
        cwd: folder,
      },
    );
    expect(imported.status).toBe(0);
    expect(readFileSync(join(folder, 'suite.yaml'), 'utf8')).not.toMatch(/[&*]a\d+/);
    expect(loadSuite(join(folder, 'suite.yaml'), folder).cases).toHaveLength(count);
  }, 60_000);
});
