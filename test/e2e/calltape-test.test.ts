import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { exportedAnswers, exportedCases } from '../support/exported-run.js';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync as runCli } from '../support/cli.js';
import { chatCompletion, type ScriptedTurn } from '../support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const running: ScriptedUpstream[] = [];
// Runs are stored away from the repository's recordings/.
const runsDb = join(temporaryFolder(), 'runs.sqlite');
const runCliAsync = (
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): ReturnType<typeof runCli> =>
  runCli(args, {
    env: { CALLTAPE_RUNS_DB: runsDb, ...options.env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** A weather model: the small one misreads the unit, the large one gets it right; greetings get text. */
function weatherModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    model: string;
    messages: { role: string; content: string }[];
  };
  const prompt = body.messages.at(-1)?.content ?? '';
  const city = /in (\w+)/.exec(prompt)?.[1];
  const unit =
    body.model === 'weather-small' && /fahrenheit/.test(prompt)
      ? 'celsius'
      : /fahrenheit/.test(prompt)
        ? 'fahrenheit'
        : 'celsius';
  const turn: ScriptedTurn = city
    ? {
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: JSON.stringify({ city, unit }) },
        ],
      }
    : { text: 'Hello!' };
  return {
    kind: 'json',
    body: chatCompletion({ ...turn, usage: { prompt_tokens: 40, completion_tokens: 9 } }),
  };
}

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
];
const cases = [
  {
    test_id: 'paris',
    prompt: 'Weather in Paris?',
    expected_tool: 'get_weather',
    arguments: { city: 'paris', unit: 'celsius' },
    rules: { city: { matching_strategy: 'ignore_case' } },
    tags: ['weather'],
  },
  {
    test_id: 'austin-f',
    prompt: 'Weather in Austin in fahrenheit?',
    expected_tool: 'get_weather',
    arguments: { city: 'Austin', unit: 'fahrenheit' },
    tags: ['weather', 'units'],
  },
  {
    test_id: 'hello',
    prompt: 'Hello there',
    expected_tool: null,
    never: ['get_weather'],
    tags: ['negative'],
  },
];

function suiteFile(folder: string, suite: object, name = 'weather.json'): string {
  const path = join(folder, name);
  writeFileSync(
    path,
    JSON.stringify({
      name: 'weather',
      system: 'You report the weather.',
      tools,
      cassette: 'weather.sqlite',
      cases,
      ...suite,
    }),
  );
  return path;
}

async function upstream(): Promise<ScriptedUpstream> {
  const started = await startScriptedUpstream(weatherModel);
  running.push(started);
  return started;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(join(packageRoot, 'config/test-report.schema.json'), 'utf8')) as object,
);

describe('calltape test (direct mode)', () => {
  it('replays what was recorded last after recording again into the same cassette (regression: replay served the first recording forever)', async () => {
    const folder = temporaryFolder();
    let unit = 'fahrenheit';
    const live = await startScriptedUpstream(() => ({
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: JSON.stringify({ city: 'paris', unit }) },
        ],
      }),
    }));
    running.push(live);
    const suite = suiteFile(folder, { model: 'weather-large', cases: cases.slice(0, 1) });
    const record = ['test', suite, '--mode', 'record', '--upstream', live.url];
    expect((await runCliAsync(record)).status).toBe(1);
    // The model was fixed: record again, and CI must now see the new answer.
    unit = 'celsius';
    expect((await runCliAsync(record)).status).toBe(0);
    const replayed = await runCliAsync(['test', suite]);
    expect(replayed.stdout).toContain('(1/1 cases passed)');
    expect(replayed.status).toBe(0);
    // Re-scoring the cassette sees the case's new recording only, not both runs of it.
    const rescored = await runCliAsync([
      'score',
      '--cassette',
      join(folder, 'weather.sqlite'),
      '--suite',
      suite,
    ]);
    expect(rescored.stdout).toContain('(1/1 cases passed)');
    expect(rescored.status).toBe(0);
    // A re-recording that fails keeps the recording it would have replaced.
    const down = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      'http://127.0.0.1:1',
    ]);
    expect(down.status).toBe(3);
    expect(down.stderr).toContain(
      'kept the earlier recordings of the cases whose recording failed',
    );
    expect((await runCliAsync(['test', suite])).status).toBe(0);
  });

  it('records, then replays offline: the same scores, reports in JSON (valid), JUnit (parseable) and Markdown', async () => {
    const folder = temporaryFolder();
    const suite = suiteFile(folder, {
      model: 'weather-small',
      gates: { pass_rate: 0.6, per_tag: { negative: 1 } },
    });
    const live = await upstream();
    const recorded = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      live.url,
      '--json',
      join(folder, 'record.json'),
    ]);
    // Not a terminal: a plain progress line per tenth of the cases (here, per case), the last one with the total.
    expect(recorded.stderr.trim().split('\n').at(-1)).toBe(
      'calltape test: 3/3 cases run, 1 not passing',
    );
    expect(recorded.status).toBe(0);
    expect(live.received).toHaveLength(3);
    await live.close();

    const summary = join(folder, 'summary.md');
    writeFileSync(summary, '');
    const replayed = await runCliAsync(
      [
        'test',
        suite,
        '--json',
        join(folder, 'replay.json'),
        '--junit',
        join(folder, 'junit.xml'),
        '--markdown',
        join(folder, 'report.md'),
        '--html',
        join(folder, 'report.html'),
      ],
      { env: { GITHUB_STEP_SUMMARY: summary, OPENAI_API_KEY: '' } },
    );
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toContain('FAIL  austin-f (score 0.500)');
    expect(replayed.stdout).toContain(
      'unit: expected "fahrenheit", got "celsius" (exact, value_mismatch)',
    );
    expect(replayed.stdout).toContain('pass pass_rate: 66.7% (2/3 cases passed); at least 60%');
    expect(replayed.stdout).toContain('PASSED');

    const report = JSON.parse(readFileSync(join(folder, 'replay.json'), 'utf8')) as {
      cases: { test_id: string; status: string; score: number; calls: unknown[] }[];
      runs: unknown[];
      mode: string;
      exit_code: number;
    };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report).toMatchObject({
      mode: 'replay',
      exit_code: 0,
      runs: [{ run: 'default', model: 'weather-small', total: 3, passed: 2, failed: 1, errors: 0 }],
    });
    const recordedReport = JSON.parse(
      readFileSync(join(folder, 'record.json'), 'utf8'),
    ) as typeof report;
    expect(report.cases.map((item) => [item.test_id, item.status, item.score, item.calls])).toEqual(
      recordedReport.cases.map((item) => [item.test_id, item.status, item.score, item.calls]),
    );

    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(folder, 'junit.xml'), 'utf8'),
    ) as {
      testsuites: {
        testsuite: {
          '@_tests': string;
          '@_failures': string;
          testcase: { '@_name': string; failure?: { '@_message': string; '#text': string } }[];
        };
      };
    };
    const testsuite = junit.testsuites.testsuite;
    expect([testsuite['@_tests'], testsuite['@_failures']]).toEqual(['3', '1']);
    expect(
      testsuite.testcase.map((testcase) => [
        testcase['@_name'],
        testcase.failure?.['@_message'] ?? null,
      ]),
    ).toEqual([
      ['paris', null],
      ['austin-f', 'unit: expected "fahrenheit", got "celsius" (exact, value_mismatch)'],
      ['hello', null],
    ]);
    expect(testsuite.testcase[1]?.failure?.['#text']).toContain(
      'called: get_weather({"city":"Austin","unit":"celsius"})',
    );
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toContain(
      '## calltape test: weather — ✅ passed',
    );
    expect(readFileSync(summary, 'utf8')).toBe(readFileSync(join(folder, 'report.md'), 'utf8'));
    const html = readFileSync(join(folder, 'report.html'), 'utf8');
    // Self-contained (calltape view's export): no external script, style or image; every case there with its diff.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    const austin = exportedCases(html).find((item) => item.test_id === 'austin-f');
    expect(austin).toMatchObject({ status: 'fail', tags: ['weather', 'units'] });
    expect(austin.call.mismatches.unit).toMatchObject({
      expected: 'fahrenheit',
      actual: 'celsius',
      strategy: 'exact',
      reason: 'value_mismatch',
    });
    expect(austin.calls[0]).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Austin","unit":"celsius"}',
    });
  });

  it('compares run configurations side by side, and exits 1 naming the gate that failed and by how much', async () => {
    const folder = temporaryFolder();
    const suite = suiteFile(folder, {
      runs: [
        { name: 'small', model: 'weather-small' },
        { name: 'large', model: 'weather-large' },
      ],
      gates: { per_tool: { get_weather: 1 } },
    });
    const live = await upstream();
    const result = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      live.url,
      '--json',
      join(folder, 'report.json'),
      '--concurrency',
      '2',
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'FAIL per_tool get_weather [small]: 50% (1/2 cases passed); needs 100%, short by 50%',
    );
    expect(result.stdout).toContain(
      'pass per_tool get_weather [large]: 100% (2/2 cases passed); at least 100%',
    );
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      runs: { run: string; pass_rate: number }[];
      cases: { run: string; test_id: string; session: string }[];
    };
    expect(report.runs.map((run) => [run.run, run.pass_rate])).toEqual([
      ['small', 0.666667],
      ['large', 1],
    ]);
    // Results keep suite order, run by run, whatever the concurrency.
    expect(report.cases.map((item) => item.session)).toEqual([
      'small/paris',
      'small/austin-f',
      'small/hello',
      'large/paris',
      'large/austin-f',
      'large/hello',
    ]);

    // A baseline where the small model passed everything: its drop is a regression.
    const baseline = join(folder, 'baseline.json');
    writeFileSync(
      baseline,
      JSON.stringify({
        schema_version: 1,
        runs: [
          { run: 'small', pass_rate: 1 },
          { run: 'large', pass_rate: 1 },
        ],
      }),
    );
    writeFileSync(
      suite,
      JSON.stringify({
        ...JSON.parse(readFileSync(suite, 'utf8')),
        gates: { max_regression: 0.1 },
      }),
    );
    const regressed = await runCliAsync(['test', suite, '--baseline', baseline]);
    expect(regressed.status).toBe(1);
    expect(regressed.stdout).toContain(
      'FAIL max_regression [small]: pass rate 100% → 66.7% (−33.3%; at most −10% allowed)',
    );

    // Every run is stored: list it, show it again, compare its two configurations.
    const id = /stored as run #(\d+)/.exec(regressed.stdout)?.[1] ?? '';
    const listed = await runCliAsync(['runs', 'ls']);
    expect(listed.stdout).toContain(`#${id}`);
    expect(listed.stdout).toContain('small (weather-small): 66.7%, 0.833');
    expect((await runCliAsync(['runs', 'show', id])).stdout).toContain(
      'FAIL max_regression [small]',
    );
    const fixes = await runCliAsync(['compare', `${id}:small`, `${id}:large`]);
    expect(fixes.status).toBe(0);
    expect(fixes.stdout).toContain(`#${id}:small → #${id}:large: pass rate 66.7% → 100%`);
    expect(fixes.stdout).toContain(
      'austin-f: fail → pass (score 0.500 → 1.000) — unit: expected "fahrenheit", got "celsius" (exact, value_mismatch)',
    );
    const regressions = await runCliAsync(['compare', `${id}:large`, `${id}:small`]);
    expect(regressions.status).toBe(1);
    expect(regressions.stdout).toContain('regressions (1):');
    expect((await runCliAsync(['compare', id, id])).stderr).toContain(
      `run #${id} has the configurations small, large: name one as ${id}:<configuration>`,
    );
    // A stored run is a baseline too.
    const againstRun = await runCliAsync(['test', suite, '--baseline', id]);
    expect(againstRun.stdout).toContain(
      'pass max_regression [small]: pass rate 66.7% → 66.7% (no drop; at most −10% allowed)',
    );
  });

  it('marks a case unreliable when its expected tool was not offered, gates it as `unreliable` says, and puts the configurations side by side', async () => {
    const folder = temporaryFolder();
    const clock = [
      {
        type: 'function',
        function: { name: 'get_time', parameters: { type: 'object', properties: {} } },
      },
    ];
    const runs = [
      { name: 'full', model: 'weather-large' },
      { name: 'bare', model: 'weather-large', tools: clock, price: { input: 1, output: 2 } },
    ];
    const suite = suiteFile(folder, { runs });
    const live = await upstream();
    const strict = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      live.url,
      '--json',
      join(folder, 'report.json'),
      '--junit',
      join(folder, 'junit.xml'),
      '--html',
      join(folder, 'report.html'),
    ]);
    // By default an unreliable case counts as failing: a gate never passes because a tool went missing.
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain(
      '3 case(s) unreliable (a tool the case names was not offered; neither pass nor fail):',
    );
    expect(strict.stdout).toContain(
      'UNREL bare/paris: the expected tool get_weather was not offered to the model in this run (offered: get_time)',
    );
    expect(strict.stdout).toContain(
      'FAIL pass_rate [bare]: 0% (0/3 cases passed; 3 unreliable counted as failing); needs 100%, short by 100%',
    );
    // hello's `never: [get_weather]` cannot fail where get_weather is not offered.
    expect(strict.stdout).toContain(
      'UNREL bare/hello: never: get_weather names a tool this run never offered the model, so the check cannot fail (offered: get_time)',
    );
    expect(strict.stdout).not.toContain('FAIL  bare/paris');
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      runs: { run: string; unreliable: number; pass_rate: number; tools_offered: string[] }[];
      cases: { session: string; status: string; tools_offered: string[] }[];
    };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(
      report.runs.map((run) => [run.run, run.tools_offered, run.unreliable, run.pass_rate]),
    ).toEqual([
      ['full', ['get_weather'], 0, 1],
      // The gate's number: the unreliable cases count as failing (it said 100% here, issue 31).
      ['bare', ['get_time'], 3, 0],
    ]);
    expect(report.cases.map((item) => [item.session, item.status])).toEqual([
      ['full/paris', 'pass'],
      ['full/austin-f', 'pass'],
      ['full/hello', 'pass'],
      ['bare/paris', 'unreliable'],
      ['bare/austin-f', 'unreliable'],
      ['bare/hello', 'unreliable'],
    ]);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(folder, 'junit.xml'), 'utf8'),
    ) as { testsuites: { testsuite: { '@_skipped': string }[] } };
    expect(junit.testsuites.testsuite.map((item) => item['@_skipped'])).toEqual(['0', '3']);
    const html = readFileSync(join(folder, 'report.html'), 'utf8');
    const exported = exportedAnswers(html);
    const shown = Object.entries(exported).find(([path]) => /^runs\/\d+$/.test(path))?.[1];
    expect(shown.run.configs.map((config: { name: string }) => config.name)).toEqual([
      'full',
      'bare',
    ]);
    expect(
      shown.cases.filter((row: { status: string }) => row.status === 'unreliable'),
    ).toHaveLength(3);

    // `unreliable: ignore` leaves them out of every gate.
    writeFileSync(
      suite,
      JSON.stringify({
        ...JSON.parse(readFileSync(suite, 'utf8')),
        gates: { unreliable: 'ignore' },
      }),
    );
    const lenient = await runCliAsync(['test', suite]);
    expect(lenient.status).toBe(0);
    expect(lenient.stdout).toContain(
      'pass pass_rate [bare]: 100% (0/0 cases passed; 3 unreliable left out); at least 100%',
    );

    // One run id: its configurations side by side.
    const id = /stored as run #(\d+)/.exec(lenient.stdout)?.[1] ?? '';
    const table = await runCliAsync(['compare', id]);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/tools offered\s+│ get_weather\s+│ get_time/);
    expect(table.stdout).toMatch(/get_weather\s+│ 100% \(2\/2\)\s+│ -/);
    const matrix = JSON.parse((await runCliAsync(['compare', id, '--json'])).stdout) as {
      columns: {
        run: string;
        unreliable: number;
        tokens: { input: number; output: number };
        cost_usd: number | null;
      }[];
    };
    expect(
      matrix.columns.map((column) => [
        column.run,
        column.unreliable,
        column.tokens,
        column.cost_usd,
      ]),
    ).toEqual([
      ['full', 0, { input: 120, output: 27 }, null],
      ['bare', 3, { input: 120, output: 27 }, 0.000174],
    ]);
  });

  it('exits 2 for a suite error naming file, case and field, and 3 when the cassette cannot answer', async () => {
    const folder = temporaryFolder();
    const bad = suiteFile(
      folder,
      {
        model: 'm',
        cases: [{ test_id: 'x', prompt: 'hi', expected_tool: 'get_weather', argumnts: {} }],
      },
      'bad.json',
    );
    const invalid = await runCliAsync(['test', bad]);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain(`CONFIG_INVALID: ${bad}: case "x": argumnts: unknown field`);
    const duplicate = await runCliAsync([
      'test',
      suiteFile(folder, { model: 'm', cases: [cases[0], cases[0]] }, 'dup.json'),
    ]);
    expect(duplicate.stderr).toContain('case "paris": test_id: also used by case #1');

    const unreachable = await runCliAsync([
      'test',
      suiteFile(folder, { model: 'm', cassette: 'down.sqlite' }, 'down.json'),
      '--mode',
      'record',
      '--upstream',
      'http://127.0.0.1:1',
    ]);
    expect(unreachable.status).toBe(3);
    expect(unreachable.stdout).toMatch(
      /ERROR paris .*\n.*\n\s+the model request failed with HTTP 502: calltape: could not reach the upstream/,
    );

    const missing = await runCliAsync(['test', suiteFile(folder, { model: 'm' }, 'missing.json')]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('no such cassette to replay');

    // Record two cases, then ask for a third the cassette never saw.
    const live = await upstream();
    const suite = suiteFile(
      folder,
      { model: 'weather-large', cases: cases.slice(0, 2) },
      'partial.json',
    );
    expect(
      (await runCliAsync(['test', suite, '--mode', 'record', '--upstream', live.url])).status,
    ).toBe(0);
    writeFileSync(suite, JSON.stringify({ ...JSON.parse(readFileSync(suite, 'utf8')), cases }));
    const missed = await runCliAsync(['test', suite]);
    expect(missed.status).toBe(3);
    expect(missed.stdout).toContain('ERROR hello');
    // Told once for the run, with the command that records it (the case points at it).
    expect(missed.stdout).toContain('1 case missed: its request changed at messages[1].content');
    expect(missed.stdout).toMatch(/record them: calltape test \S*partial\.json --mode record/);
    expect(missed.stdout).toContain('replay miss: its request changed at messages[1].content');
  });
});

/** A tiny agent without dependencies: reads its prompt the way the suite says, asks the model once through OPENAI_BASE_URL, offering get_weather. */
const tinyAgent = `
const input = process.env.TINY_INPUT;
const prompt = input === 'env' ? process.env.CALLTAPE_PROMPT : input === 'stdin' ? require('fs').readFileSync(0, 'utf8') : process.argv[2];
if (prompt.includes('crash')) { console.error('TypeError: cannot read the menu'); process.exit(4); }
if (prompt.includes('silent')) process.exit(0);
if (prompt.includes('hang')) setInterval(() => {}, 1000);
else fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY }, body: JSON.stringify({ model: process.env.CALLTAPE_MODEL, messages: [{ role: 'user', content: prompt }], tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } } } }] }) })
  .then((response) => response.json()).then((answer) => console.log(JSON.stringify(answer.choices[0].message)));
`;

/** Writes the tiny agent and a suite driving it with `input`, and runs `calltape test` on it, recording. */
async function runTinyAgentSuite(
  input: 'arg' | 'stdin' | 'env',
  cases: readonly Record<string, unknown>[],
  timeoutMs?: number,
): Promise<{ status: number | null; folder: string; report: TinyAgentReport }> {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'agent.cjs'), tinyAgent);
  const suite = join(folder, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({
      model: 'weather-large',
      cassette: 'agent.sqlite',
      agent: {
        command: `node ${join(folder, 'agent.cjs')}`,
        input,
        ...(timeoutMs === undefined ? {} : { timeout_ms: timeoutMs }),
        env: { TINY_INPUT: input },
      },
      gates: { pass_rate: 0.3 },
      cases,
    }),
  );
  const live = await upstream();
  const result = await runCliAsync(
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
    { env: { OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' } },
  );
  const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as TinyAgentReport;
  return { status: result.status, folder, report };
}

interface TinyAgentReport {
  cases: {
    test_id: string;
    status: string;
    score: number;
    problems: string[];
    agent: { exit_code: number | null; timed_out: boolean; stdout: string; stderr: string };
  }[];
}

describe('calltape test (agent mode)', () => {
  // The agents that finish get the default timeout, so a crowded machine starting Node slowly
  // cannot turn them into timeouts; only the agent that hangs runs under a short one.
  it.each(['arg', 'stdin', 'env'] as const)(
    'hands the agent its prompt by %s, and reports a crash as an error with the reason',
    async (input) => {
      const { status, folder, report } = await runTinyAgentSuite(input, [
        {
          test_id: 'oslo',
          prompt: "Weather in Oslo, it's 'cold'?",
          expected_tool: 'get_weather',
          arguments: { city: 'Oslo', unit: 'celsius' },
        },
        { test_id: 'crash', prompt: 'crash please', expected_tool: null },
      ]);
      // A case that could not run is exit 3, whatever the gates say.
      expect(status).toBe(3);
      const [oslo, crash] = report.cases;
      expect(oslo).toMatchObject({ status: 'pass', agent: { exit_code: 0, timed_out: false } });
      expect(oslo?.agent.stdout).toContain('get_weather');
      expect(crash).toMatchObject({
        status: 'error',
        score: 0,
        problems: ['the agent exited with 4: TypeError: cannot read the menu'],
      });
      // The key reached the agent but never the cassette.
      expect(
        readFileSync(join(folder, 'agent.sqlite')).includes('sk-test-key-0123456789abcdef'),
      ).toBe(false);
    },
  );

  it('issue #30: a crashed negative case (expected_tool: null) is an error scored 0, not a pass scored 1.000', async () => {
    const { report } = await runTinyAgentSuite('arg', [
      { test_id: 'crash', prompt: 'crash please', expected_tool: null },
    ]);
    expect(report.cases[0]).toMatchObject({ status: 'error', score: 0 });
  });

  it('issue #30: an agent that exits 0 without reaching the model is an error, not a pass', async () => {
    const { status, report } = await runTinyAgentSuite('arg', [
      { test_id: 'silent', prompt: 'stay silent', expected_tool: null },
    ]);
    expect(status).toBe(3);
    expect(report.cases[0]).toMatchObject({
      status: 'error',
      score: 0,
      problems: [expect.stringContaining('the agent exited 0 without reaching the model')],
    });
  });

  it('fails an agent that does not finish within timeout_ms, with the reason', async () => {
    const { status, report } = await runTinyAgentSuite(
      'arg',
      [{ test_id: 'hang', prompt: 'hang forever', expected_tool: null }],
      1000,
    );
    expect(status).toBe(1);
    expect(report.cases[0]).toMatchObject({
      status: 'fail',
      problems: ['the agent did not finish within 1000 ms'],
      agent: { timed_out: true },
    });
  });
});

describe('test-in-ci.md said agent.command resolves against the suite folder, so a suite runs the same from any directory', () => {
  it('runs agent.command in the working directory, and in the suite folder with cwd: .', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'agent.cjs'), tinyAgent);
    mkdirSync(join(folder, 'suites'));
    const suite = (name: string, agent: object): string => {
      const path = join(folder, 'suites', name);
      writeFileSync(
        path,
        JSON.stringify({
          model: 'weather-large',
          cassette: `${name}.sqlite`,
          agent,
          cases: [cases[0]],
        }),
      );
      return path;
    };
    const command = { command: 'node ../agent.cjs', env: { TINY_INPUT: 'arg' } };
    const live = await upstream();
    const run = (file: string, cwd: string): ReturnType<typeof runCliAsync> =>
      runCliAsync(['test', file, '--mode', 'record', '--upstream', live.url], {
        cwd,
        env: { OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' },
      });
    const bare = suite('bare.json', command);
    const inSuites = await run(bare, join(folder, 'suites'));
    expect(inSuites.status, inSuites.stdout + inSuites.stderr).toBe(0);
    const elsewhere = await run(bare, folder);
    // An agent that cannot start is an error, not a fail scored on no calls (issue #30).
    expect(elsewhere.status).toBe(3);
    expect(elsewhere.stdout).toMatch(
      /ERROR paris[\s\S]*the agent exited with 1: Error: Cannot find module/,
    );
    expect((await run(suite('pinned.json', { ...command, cwd: '.' }), folder)).status).toBe(0);
  });
});

describe('calltape test (agent mode): infrastructure', () => {
  it('reports an unreachable upstream as an error (exit 3), not as the agent failing', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'agent.cjs'), tinyAgent);
    const suite = join(folder, 'suite.json');
    writeFileSync(
      suite,
      JSON.stringify({
        model: 'm',
        cassette: 'down.sqlite',
        agent: { command: `node ${join(folder, 'agent.cjs')}`, env: { TINY_INPUT: 'arg' } },
        cases: [cases[0]],
      }),
    );
    const result = await runCliAsync(
      ['test', suite, '--mode', 'record', '--upstream', 'http://127.0.0.1:1'],
      { env: { OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' } },
    );
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(
      /ERROR paris .*\n.*\n\s+the upstream failed: calltape: could not reach the upstream/,
    );
  });
});

describe('calltape test (agent mode) and calltape score: the example suite', () => {
  it('replays the committed example cassette through the real agent, and re-scores it with an edited suite', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'bank-demo.sqlite');
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), cassette);
    const suite = join(packageRoot, 'examples/bank/suite.yaml');
    const result = await runCliAsync(
      [
        'test',
        suite,
        '--cassette',
        cassette,
        '--now',
        '2026-11-30T12:00:00Z',
        '--json',
        join(folder, 'report.json'),
      ],
      { env: { OPENAI_API_KEY: '' } },
    );
    expect(result.status).toBe(0);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as {
      drive: string;
      runs: { passed: number; total: number }[];
      cases: {
        test_id: string;
        status: string;
        calls: { name: string; mocked: boolean }[];
        agent: { exit_code: number };
      }[];
    };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.drive).toBe('agent');
    expect(report.runs[0]).toMatchObject({ passed: 21, total: 22 });
    expect(report.cases.find((item) => item.test_id === 'TC-010')?.status).toBe('fail');
    // The transfer was answered by the mock: the agent's own execute_transfer never ran.
    expect(report.cases.find((item) => item.test_id === 'TC-016')?.calls).toEqual([
      {
        name: 'execute_transfer',
        arguments: '{"recipient_name":"Sam Park","amount":20,"account_type":"checking"}',
        mocked: true,
        round: 1,
      },
      { name: 'get_balance', arguments: '{"account_type":"checking"}', mocked: false, round: 2 },
    ]);
    expect(report.cases.every((item) => item.agent.exit_code === 0)).toBe(true);

    // Change the ground truth, not the recording: accept the model's extra currency argument.
    const edited = join(folder, 'suite.yaml');
    const text = readFileSync(suite, 'utf8')
      .replace('tools: ./tools.json', `tools: ${join(packageRoot, 'examples/bank/tools.json')}`)
      .replace('mocks: [./mocks.yaml]', '')
      .replace(
        '    arguments: { account_type: savings }\n    tags: [balance]\n  # Searches.',
        '    arguments: { account_type: savings, currency: EUR }\n    schemas: { get_balance: {} }\n    tags: [balance]\n  # Searches.',
      );
    writeFileSync(edited, text.replace('cwd: ../..', `cwd: ${packageRoot}`));
    const rescored = await runCliAsync([
      'score',
      '--cassette',
      cassette,
      '--suite',
      edited,
      '--now',
      '2026-11-30T12:00:00Z',
    ]);
    expect(rescored.stdout).toContain('calltape test · bank · cassette · score');
    expect(rescored.stdout).toMatch(/│ default │ gpt-4o-mini │ 22 +│ 22 +│ 0 +│ 0 +│ 0 +│ 100% /);
    expect(rescored.status).toBe(0);
  });
});
