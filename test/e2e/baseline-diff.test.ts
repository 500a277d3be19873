import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Database from 'better-sqlite3';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { exportedRun } from '../support/exported-run.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
        required: ['city'],
      },
    },
  },
];
const cases = ['Paris', 'Rome', 'Oslo'].map((city) => ({
  test_id: city.toLowerCase(),
  prompt: `Weather in ${city}?`,
  expected_tool: 'get_weather',
  arguments: { city, unit: 'celsius' },
}));

/** A weather model whose unit the test turns: the behaviour a prompt or model change moves. */
async function weatherModel(unit: { value: string }): Promise<ScriptedUpstream> {
  const upstream = await startScriptedUpstream((request) => {
    const body = JSON.parse(request.body) as { messages: { content: string }[] };
    const city = /in (\w+)/.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? '';
    return {
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          {
            id: 'call_1',
            name: 'get_weather',
            arguments: JSON.stringify({ city, unit: unit.value }),
          },
        ],
      }),
    };
  });
  running.push(upstream);
  return upstream;
}

function project(system = 'You report the weather.'): {
  folder: string;
  suite: string;
  cli: (args: readonly string[], env?: Record<string, string>) => ReturnType<typeof runCliAsync>;
} {
  const folder = temporaryFolder();
  const suite = join(folder, 'weather.json');
  writeFileSync(
    suite,
    JSON.stringify({
      name: 'weather',
      model: 'weather-1',
      system,
      tools,
      cassette: 'weather.sqlite',
      cases,
    }),
  );
  const runsDb = join(folder, 'runs.sqlite');
  return {
    folder,
    suite,
    // No CI variable of the machine running the tests decides the branch a run is stored with.
    cli: (args, env = {}) =>
      runCliAsync(args, {
        cwd: folder,
        env: {
          CALLTAPE_RUNS_DB: runsDb,
          GITHUB_SHA: '',
          GITHUB_HEAD_REF: '',
          GITHUB_REF_NAME: '',
          CI_COMMIT_SHA: '',
          CI_COMMIT_REF_NAME: '',
          CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: '',
          ...env,
        },
      }),
  };
}

describe('calltape test compares itself with a baseline', () => {
  it('compares a re-recording with the run that last recorded the cassette, case by case, in every report', async () => {
    const unit = { value: 'celsius' };
    const live = await weatherModel(unit);
    const { folder, suite, cli } = project();
    const record = ['test', suite, '--mode', 'record', '--upstream', live.url];
    const first = await cli(record, { GITHUB_HEAD_REF: 'main', GITHUB_SHA: 'c0ffee' });
    expect(first.status, first.stdout + first.stderr).toBe(0);
    // Nothing recorded before it: nothing to compare with.
    expect(first.stdout).not.toContain('Compared with');

    unit.value = 'fahrenheit';
    const reports = ['json', 'junit', 'markdown', 'html'].flatMap((kind) => [
      `--${kind}`,
      join(folder, `report.${kind}`),
    ]);
    const second = await cli([...record, ...reports], { GITHUB_HEAD_REF: 'feature/units' });
    expect(second.status).toBe(1);
    expect(second.stdout).toContain(
      'Compared with run #1 (the run that last recorded the cassette · main · c0ffee',
    );
    expect(second.stdout).toContain('pass rate 100% → 0%; 3 case(s) changed, 0 unchanged');
    expect(second.stdout).toContain('pass → fail (regression)');
    expect(second.stdout).toContain('get_weather unit: "celsius" → "fahrenheit"');

    const json = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      git: { branch: string };
      baseline: {
        kind: string;
        run_id: number;
        branch: string;
        diff: { cases: { test_id: string; verdict: object; arguments: object[] }[] };
      };
    };
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(
        readFileSync(join(packageRoot, 'config/test-report.schema.json'), 'utf8'),
      ) as object,
    );
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.git.branch).toBe('feature/units');
    expect(json.baseline).toMatchObject({ kind: 'recorded', run_id: 1, branch: 'main' });
    expect(json.baseline.diff.cases[0]).toMatchObject({
      test_id: 'paris',
      verdict: { before: 'pass', after: 'fail', kind: 'regression' },
      arguments: [
        { tool: 'get_weather', path: 'unit', before: '"celsius"', after: '"fahrenheit"' },
      ],
    });

    // CI pages show the message: it carries the whole first difference, since the baseline too.
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(folder, 'report.junit'), 'utf8'),
    ) as {
      testsuites: { testsuite: { testcase: { failure: { '@_message': string } }[] } };
    };
    expect(junit.testsuites.testsuite.testcase[0]?.failure['@_message']).toBe(
      'unit: expected "celsius", got "fahrenheit" (exact, value_mismatch); since run #1: get_weather unit: "celsius" → "fahrenheit"',
    );
    const markdown = readFileSync(join(folder, 'report.markdown'), 'utf8');
    expect(markdown).toContain('### What changed');
    expect(markdown).toContain(
      '| paris | pass → fail (regression) |  | get_weather unit: "celsius" → "fahrenheit" |',
    );
    // The HTML report is calltape view's exported run: its case rows carry each change.
    const exported = exportedRun(readFileSync(join(folder, 'report.html'), 'utf8'));
    expect(exported.cases.find((row) => row.test_id === 'paris')?.change).toBe(
      'get_weather unit: "celsius" → "fahrenheit"',
    );

    // Replaying compares with the newest recording: nothing changed.
    const replayed = await cli(['test', suite]);
    expect(replayed.stdout).toContain('Compared with run #2');
    expect(replayed.stdout).toContain('0 case(s) changed, 3 unchanged');

    // The last run of a branch, by the suite's name and run configurations.
    const againstMain = await cli(['test', suite, '--baseline', 'branch:main']);
    expect(againstMain.stdout).toContain('Compared with branch main (run #1)');
    expect(againstMain.stdout).toContain('3 case(s) changed');
    const unknown = await cli(['test', suite, '--baseline', 'branch:nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      '--baseline branch:nope: no run of suite "weather" with run configurations default (weather-1) on branch nope',
    );

    const db = new Database(join(folder, 'runs.sqlite'), { readonly: true });
    try {
      expect(
        db.prepare('SELECT id, git_commit, git_branch, cassette_key FROM runs ORDER BY id').all(),
      ).toContainEqual({
        id: 1,
        git_commit: 'c0ffee',
        git_branch: 'main',
        cassette_key: 'weather.sqlite',
      });
    } finally {
      db.close();
    }
    // Seven runs of the CLI, each starting a proxy: room on a loaded 2-core box.
  }, 120_000);

  it('tells a system-prompt change that makes every case miss once, with the command that records them', async () => {
    const live = await weatherModel({ value: 'celsius' });
    const { suite, cli } = project();
    expect((await cli(['test', suite, '--mode', 'record', '--upstream', live.url])).status).toBe(0);
    const changed = JSON.parse(readFileSync(suite, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      suite,
      JSON.stringify({ ...changed, system: 'You report the weather, briefly.' }),
    );

    const missed = await cli(['test', suite]);
    expect(missed.status).toBe(3);
    const cause =
      '3 cases missed: their requests changed at messages[0].content (the system prompt)';
    expect(missed.stdout.split(cause)).toHaveLength(2);
    expect(missed.stdout).toContain(
      '  messages[0].content: "You report the weather." → "You report the weather, briefly."\n  record them: calltape test weather.json --mode record',
    );
    // Each case points at the cause instead of repeating the whole miss.
    expect(missed.stdout).not.toContain('the nearest recording');
    expect(missed.stderr).not.toContain('has no recording');
    expect(
      missed.stdout.match(/replay miss: its request changed at messages\[0\]\.content/g),
    ).toHaveLength(3);
  }, 90_000);
});
