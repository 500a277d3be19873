import { readFileSync, writeFileSync } from 'node:fs';
import { exportedCases } from '../support/exported-run.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import type { SuiteRunResult } from '../../src/report/run-result.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const running: ScriptedUpstream[] = [];
// Each test runs the CLI five to seven times in a row.
const severalRuns = 180_000;
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** A model that answers right on its 1st, 3rd, 5th… call and wrong on the others. */
async function alternatingModel(): Promise<ScriptedUpstream> {
  let calls = 0;
  const upstream = await startScriptedUpstream(() => {
    calls += 1;
    const unit = calls % 2 === 1 ? 'celsius' : 'fahrenheit';
    return {
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: JSON.stringify({ city: 'Paris', unit }) },
        ],
      }),
    };
  });
  running.push(upstream);
  return upstream;
}

function suiteFile(folder: string, extra: object = {}): string {
  const path = join(folder, 'weather.json');
  writeFileSync(
    path,
    JSON.stringify({
      name: 'weather',
      model: 'weather-large',
      cassette: 'weather.sqlite',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
      cases: [
        {
          test_id: 'paris',
          prompt: 'Weather in Paris?',
          expected_tool: 'get_weather',
          arguments: { city: 'Paris', unit: 'celsius' },
        },
      ],
      ...extra,
    }),
  );
  return path;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateReport = ajv.compile(
  JSON.parse(readFileSync(join(packageRoot, 'config/test-report.schema.json'), 'utf8')) as object,
);

/** What must come out the same on every replay: each sample's session, verdict and calls. */
function verdicts(file: string): unknown {
  const report = JSON.parse(readFileSync(file, 'utf8')) as SuiteRunResult;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report.cases.map((item) => ({
    status: item.status,
    samples: item.samples && {
      ...item.samples,
      results: item.samples.results.map((sample) => [
        sample.session,
        sample.status,
        sample.calls.map((call) => call.arguments),
      ]),
    },
  }));
}

describe('calltape test --repeat', () => {
  it(
    'records pass, fail, pass as 2/3 flaky, min_pass_rate decides, and replay offline gives the same samples every time',
    async () => {
      const folder = temporaryFolder();
      const env = { CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite') };
      const suite = suiteFile(folder);
      const live = await alternatingModel();
      const json = (name: string): string[] => ['--json', join(folder, name)];
      const recorded = await runCliAsync(
        [
          'test',
          suite,
          '--mode',
          'record',
          '--upstream',
          live.url,
          '--repeat',
          '3',
          '--concurrency',
          '1',
          ...json('record.json'),
        ],
        { env },
      );
      expect(live.received).toHaveLength(3);
      await live.close();
      // min_pass_rate defaults to 1: a case that failed one sample in three fails.
      expect(recorded.status).toBe(1);
      expect(recorded.stdout).toMatch(/paris\s*│\s*2\/3\s*│\s*flaky\s*│\s*fail/);
      expect(recorded.stdout).toContain('FAIL  paris (score 0.833; 2/3 samples passed, flaky)');
      expect(recorded.stdout).toContain('2/3 samples passed; at least 100% must');
      const expected = {
        status: 'fail',
        samples: {
          passed: 2,
          total: 3,
          flaky: true,
          min_pass_rate: 1,
          results: [
            ['paris', 'pass', ['{"city":"Paris","unit":"celsius"}']],
            ['paris#2', 'fail', ['{"city":"Paris","unit":"fahrenheit"}']],
            ['paris#3', 'pass', ['{"city":"Paris","unit":"celsius"}']],
          ],
        },
      };
      expect(verdicts(join(folder, 'record.json'))).toEqual([expected]);

      // The upstream is gone: replay serves each sample its own recording, the same on every run.
      for (const name of ['replay-1.json', 'replay-2.json']) {
        const replayed = await runCliAsync(['test', suite, '--repeat', '3', ...json(name)], {
          env,
        });
        expect(replayed.status).toBe(1);
        expect(verdicts(join(folder, name))).toEqual([expected]);
      }

      // The suite's own repeats and a min_pass_rate of 0.6: 2 of 3 is enough.
      suiteFile(folder, { repeats: 3, min_pass_rate: 0.6 });
      const lenient = await runCliAsync(
        [
          'test',
          suite,
          ...json('lenient.json'),
          '--markdown',
          join(folder, 'report.md'),
          '--html',
          join(folder, 'report.html'),
          '--junit',
          join(folder, 'junit.xml'),
        ],
        { env },
      );
      expect(lenient.status).toBe(0);
      expect(lenient.stdout).toMatch(/paris\s*│\s*2\/3\s*│\s*flaky\s*│\s*pass/);
      expect(verdicts(join(folder, 'lenient.json'))).toEqual([
        { status: 'pass', samples: { ...expected.samples, min_pass_rate: 0.6 } },
      ]);
      expect(readFileSync(join(folder, 'report.md'), 'utf8')).toContain(
        '| paris | 2/3 | ⚠️ flaky | pass |',
      );
      expect(
        exportedCases(readFileSync(join(folder, 'report.html'), 'utf8'))[0].samples,
      ).toMatchObject({ passed: 2, total: 3, flaky: true });
      const junit = readFileSync(join(folder, 'junit.xml'), 'utf8');
      expect(junit).toContain('<property name="samples" value="2/3"');
      expect(junit).toContain('<property name="flaky" value="true"');
      // Re-scoring the cassette offline reads every sample's session too.
      const rescored = await runCliAsync(
        ['score', '--cassette', join(folder, 'weather.sqlite'), '--suite', suite],
        { env },
      );
      expect(rescored.status).toBe(0);
      expect(rescored.stdout).toMatch(/paris\s*│\s*2\/3\s*│\s*flaky\s*│\s*pass/);

      // A confidence gate asks more of 2/3 than the plain rate: its 95% lower bound is 20.8%.
      suiteFile(folder, {
        repeats: 3,
        min_pass_rate: 0.6,
        gates: { pass_rate: 0.5, confidence: 0.95 },
      });
      const bounded = await runCliAsync(['test', suite], { env });
      expect(bounded.status).toBe(1);
      expect(bounded.stdout).toContain(
        'FAIL pass_rate: 20.8% (Wilson lower bound at 95% confidence; 2/3 samples passed); needs 50%',
      );

      // The runs database keeps every sample.
      const db = new Database(env.CALLTAPE_RUNS_DB, { readonly: true });
      try {
        expect(
          db
            .prepare(
              'SELECT sample, session, status FROM case_samples WHERE run_id = 1 ORDER BY sample',
            )
            .all(),
        ).toEqual([
          { sample: 1, session: 'paris', status: 'pass' },
          { sample: 2, session: 'paris#2', status: 'fail' },
          { sample: 3, session: 'paris#3', status: 'pass' },
        ]);
      } finally {
        db.close();
      }
    },
    severalRuns,
  );

  it(
    'auto records only the missing samples; recording again with fewer samples supersedes the ones no longer run',
    async () => {
      const folder = temporaryFolder();
      // Auto records what is missing, which needs a key (without one it says so: issue 30).
      const env = {
        CALLTAPE_RUNS_DB: join(folder, 'runs.sqlite'),
        OPENAI_API_KEY: 'sk-test-key-0123456789abcdef',
      };
      const suite = suiteFile(folder, { min_pass_rate: 0.5 });
      const live = await alternatingModel();
      const run = (...args: string[]) =>
        runCliAsync(['test', suite, '--concurrency', '1', ...args], { env });
      // A suite recorded before repeats existed: one sample, under the case's own session.
      expect((await run('--mode', 'record', '--upstream', live.url)).status).toBe(0);
      expect(live.received).toHaveLength(1);
      // Auto with 3: sample 1 replays, samples 2 and 3 are recorded (the model's 2nd and 3rd answers).
      const auto = await run(
        '--mode',
        'auto',
        '--upstream',
        live.url,
        '--repeat',
        '3',
        '--json',
        join(folder, 'auto.json'),
      );
      expect(auto.status).toBe(0);
      expect(live.received).toHaveLength(3);
      expect(auto.stdout).toMatch(/paris\s*│\s*2\/3\s*│\s*flaky\s*│\s*pass/);
      // Again: everything replays, nothing more reaches the model.
      expect((await run('--mode', 'auto', '--upstream', live.url, '--repeat', '3')).status).toBe(0);
      expect(live.received).toHaveLength(3);

      // Recording the case again with one sample drops the recordings of samples 2 and 3.
      const again = await run('--mode', 'record', '--upstream', live.url);
      expect(again.status).toBe(1); // the model's 4th answer is a wrong one
      await live.close();
      const cassette = new Database(join(folder, 'weather.sqlite'), { readonly: true });
      try {
        expect(
          cassette.prepare('SELECT DISTINCT session_id FROM interactions ORDER BY 1').pluck().all(),
        ).toEqual(['paris']);
      } finally {
        cassette.close();
      }
      const replayed = await run('--repeat', '2');
      expect(replayed.stdout).toContain(
        '1 case missed: its request found no recording of its own sample (replay serves each sample of a repeated case only its own)',
      );
      expect(replayed.status).not.toBe(0);
    },
    severalRuns,
  );

  it('refuses --repeat 0 and a confidence without the pass_rate it bounds (exit 2, naming the field)', async () => {
    const folder = temporaryFolder();
    const zero = await runCliAsync(['test', suiteFile(folder), '--repeat', '0']);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--repeat: must be a whole number ≥ 1 (got "0")');
    const unbounded = await runCliAsync([
      'test',
      suiteFile(folder, { gates: { confidence: 0.95 } }),
    ]);
    expect(unbounded.status).toBe(2);
    expect(unbounded.stderr).toContain(
      'gates: must have property pass_rate when property confidence is present',
    );
  });
});
