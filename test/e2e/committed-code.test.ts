import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { bankPolicies, writePolicies } from '../support/shadow-bank.js';
import { temporaryFolder } from '../support/test-proxy.js';

// Issue #30: modules named by committed files (code judges, mock modules) are code.

const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** A model that calls get_weather for every prompt. */
async function upstream(): Promise<ScriptedUpstream> {
  const started = await startScriptedUpstream(() => ({
    kind: 'json',
    body: chatCompletion({
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    }),
  }));
  running.push(started);
  return started;
}

/** A module that leaves `loaded` beside itself when imported, so a test can tell it never ran. */
const marking = (body: string): string =>
  `import { writeFileSync } from 'node:fs'; writeFileSync(new URL('./loaded', import.meta.url), ''); ${body}`;

const tools = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
  },
];

interface Report {
  cases: { test_id: string; status: string; score: number; problems: string[] }[];
}

function writeSuite(folder: string, suite: object): string {
  const path = join(folder, 'suite.json');
  writeFileSync(path, JSON.stringify({ model: 'm', tools, cassette: 'c.sqlite', ...suite }));
  return path;
}

const env = (folder: string): Record<string, string> => ({
  CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite'),
  OPENAI_API_KEY: 'sk-test-0123456789abcdef',
});

describe('calltape test --no-code', () => {
  it('runs the cases that need no module, and makes each case that needs one an ERROR naming it, loading none', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'judge.mjs'),
      marking('export function judge() { return { pass: true }; }'),
    );
    writeFileSync(
      join(folder, 'respond.mjs'),
      marking('export function respond() { return { result: 1 }; }'),
    );
    writeFileSync(
      join(folder, 'mocked.json'),
      JSON.stringify({ mocks: [{ tool: 'get_weather', module: './respond.mjs' }] }),
    );
    const suite = writeSuite(folder, {
      cases: [
        {
          test_id: 'plain',
          prompt: 'Weather in Paris?',
          expected_tool: 'get_weather',
          arguments: { city: 'Paris' },
        },
        { test_id: 'judged', prompt: 'Weather in Paris?', judge: { code: './judge.mjs' } },
        {
          test_id: 'mocked',
          prompt: 'Weather in Paris?',
          expected_tool: 'get_weather',
          mocks: ['mocked.json'],
        },
      ],
    });
    const live = await upstream();
    const result = await runCliAsync(
      [
        'test',
        suite,
        '--no-code',
        '--mode',
        'record',
        '--upstream',
        live.url,
        '--json',
        join(folder, 'report.json'),
      ],
      { env: env(folder) },
    );
    // A case that could not run makes the run exit 3.
    expect(result.status, result.stderr).toBe(3);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as Report;
    expect(
      report.cases.map((item) => [item.test_id, item.status, item.score]),
      JSON.stringify(report.cases[0]?.problems),
    ).toEqual([
      ['plain', 'pass', 1],
      ['judged', 'error', 0],
      ['mocked', 'error', 0],
    ]);
    expect(report.cases[1]?.problems).toEqual([
      `--no-code: this case needs code, which was refused: ${join(folder, 'judge.mjs')} (${suite}: case "judged": judge.code)`,
    ]);
    expect(report.cases[2]?.problems).toEqual([
      `--no-code: this case needs code, which was refused: ${join(folder, 'respond.mjs')} (${join(folder, 'mocked.json')}: mocks[0] (get_weather).module)`,
    ]);
    expect(existsSync(join(folder, 'loaded'))).toBe(false);
    // Only the case that ran reached the model.
    expect(live.received).toHaveLength(1);

    // calltape score --no-code: the same refusal offline, for a judge on the recorded case.
    const judgedPlain = join(folder, 'judged-plain.json');
    writeFileSync(
      judgedPlain,
      JSON.stringify({
        ...(JSON.parse(readFileSync(suite, 'utf8')) as object),
        cases: [{ test_id: 'plain', prompt: 'Weather in Paris?', judge: { code: './judge.mjs' } }],
      }),
    );
    const scored = await runCliAsync(
      [
        'score',
        '--cassette',
        join(folder, 'c.sqlite'),
        '--suite',
        judgedPlain,
        '--no-code',
        '--json',
        join(folder, 'score.json'),
      ],
      { env: env(folder) },
    );
    expect(scored.status).toBe(3);
    const rescored = JSON.parse(readFileSync(join(folder, 'score.json'), 'utf8')) as Report;
    expect(rescored.cases[0]).toMatchObject({
      status: 'error',
      problems: [
        `--no-code: this case needs code, which was refused: ${join(folder, 'judge.mjs')} (${judgedPlain}: case "plain": judge.code)`,
      ],
    });
    expect(existsSync(join(folder, 'loaded'))).toBe(false);
    // Two CLI runs, each a process start: room for a loaded CI machine.
  }, 90_000);
});

describe('modules outside the project root', () => {
  it('calltape test refuses a judge outside the project (exit 2, the field named), and runs it with --allow-code-outside-project', async () => {
    const parent = temporaryFolder();
    const project = join(parent, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, 'suites'));
    writeFileSync(
      join(parent, 'judge.mjs'),
      marking('export function judge() { return { pass: true }; }'),
    );
    const suite = writeSuite(join(project, 'suites'), {
      cases: [
        { test_id: 'judged', prompt: 'Weather in Paris?', judge: { code: '../../judge.mjs' } },
      ],
    });
    const live = await upstream();
    const args = ['test', suite, '--mode', 'record', '--upstream', live.url];
    const refused = await runCliAsync(args, { env: env(parent) });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `${suite}: case "judged": judge.code: ${join(parent, 'judge.mjs')} is outside the project root ${project}`,
    );
    expect(refused.stderr).toContain('--allow-code-outside-project');
    expect(existsSync(join(parent, 'loaded'))).toBe(false);
    expect(live.received).toHaveLength(0);

    const allowed = await runCliAsync([...args, '--allow-code-outside-project'], {
      env: env(parent),
    });
    expect(allowed.status, allowed.stdout + allowed.stderr).toBe(0);
    expect(existsSync(join(parent, 'loaded'))).toBe(true);
  }, 90_000);
});

describe('calltape replay|proxy --no-code', () => {
  it('refuses to start when a mock file names a module, naming it', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'respond.mjs'),
      marking('export function respond() { return { result: 1 }; }'),
    );
    writeFileSync(
      join(folder, 'm.json'),
      JSON.stringify({ mocks: [{ tool: 'get_weather', module: './respond.mjs' }] }),
    );
    const result = await runCliAsync(
      [
        'record',
        '--cassette',
        join(folder, 'c.sqlite'),
        '--mocks',
        join(folder, 'm.json'),
        '--no-code',
        '--upstream',
        'http://127.0.0.1:1',
        '--',
        'true',
      ],
      { env: env(folder) },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `--no-code: refused to start, since these modules would run: ${join(folder, 'respond.mjs')} (${join(folder, 'm.json')}: mocks[0] (get_weather).module)`,
    );
    expect(existsSync(join(folder, 'loaded'))).toBe(false);
  });

  it('a proxy with shadow policies naming a code judge, directly or through a suite of cases, refuses to start', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'judge.mjs'),
      marking('export function judge() { return { pass: true }; }'),
    );
    const suite = writeSuite(folder, {
      cases: [{ test_id: 'judged', prompt: 'Weather in Paris?', judge: { code: './judge.mjs' } }],
    });
    const policies = writePolicies(
      folder,
      bankPolicies(
        `  - { id: slow, kind: judge, code: ./judge.mjs }\n  - { id: truth, kind: cases, suites: [${suite}] }\n`,
      ),
    );
    const result = await runCliAsync(
      ['proxy', '--port', '0', '--policies', policies, '--no-code'],
      {
        env: env(folder),
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `--no-code: refused to start, since these modules would run: ${join(folder, 'judge.mjs')} (${policies}: policies[4].code); ${join(folder, 'judge.mjs')} (${suite}: case "judged": judge.code)`,
    );
    expect(existsSync(join(folder, 'loaded'))).toBe(false);
  });
});
