import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { RatingStore } from '../../src/ratings/rating-store.js';
import { runCliAsync } from '../support/cli.js';
import { recordedRows } from '../support/recorded-rows.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const folder = temporaryFolder();
const ratings = join(folder, 'ratings.sqlite');
// A copy: a replay notes which recordings it served (for `cassettes prune`), and tests leave recordings/ alone.
const judgesCassette = join(folder, 'bank-judges.sqlite');
copyFileSync(join(packageRoot, 'recordings/bank-judges.sqlite'), judgesCassette);
const demoJudges = 'examples/bank/judges/judges.yaml';
/** The recorded round trips, in order: what a replay must never change. */
const recorded = recordedRows;
const compare = (
  extra: readonly string[] = [],
  judges = demoJudges,
): ReturnType<typeof runCliAsync> =>
  runCliAsync([
    'judges',
    'compare',
    '--ratings',
    ratings,
    '--set',
    'golden',
    '--judges',
    judges,
    '--cassette',
    judgesCassette,
    ...extra,
  ]);

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream();
  const imported = await runCliAsync([
    'ratings',
    'import',
    'examples/bank/judges/golden.yaml',
    '--ratings',
    ratings,
  ]);
  expect(imported.status, imported.stderr).toBe(0);
});
afterAll(async () => {
  await upstream.close();
});

describe('calltape judges compare on the bundled golden set', () => {
  it('replays the recorded judges offline, names the best judge and lists every disagreement, byte-identical run after run', async () => {
    const before = recorded(judgesCassette);
    const first = await compare([
      '--json',
      join(folder, 'first.json'),
      '--html',
      join(folder, 'first.html'),
    ]);
    const second = await compare(['--json', join(folder, 'second.json')]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    expect(readFileSync(join(folder, 'first.json'), 'utf8')).toBe(
      readFileSync(join(folder, 'second.json'), 'utf8'),
    );
    expect(recorded(judgesCassette)).toEqual(before);
    // Kept beside the ratings for calltape view's judges section: the report --json wrote.
    const kept = new RatingStore(ratings, { readonly: true });
    try {
      expect(kept.listComparisons().map((comparison) => comparison.report)).toEqual([
        JSON.parse(readFileSync(join(folder, 'second.json'), 'utf8')),
      ]);
    } finally {
      kept.close();
    }
    expect(first.stdout).toContain('22 rated runs (17 pass, 5 fail)');
    expect(first.stdout).toContain('Best judge: desired-behaviour (highest κ, then lowest cost).');
    expect(first.stdout).toMatch(
      /suite-checks disagrees on 4 run\(s\):\n {2}recordings\/bank-demo\.sqlite#TC-003: rated fail, judged pass/,
    );

    const report = JSON.parse(readFileSync(join(folder, 'first.json'), 'utf8')) as {
      best: string;
      judges: {
        name: string;
        n: number;
        kappa: number;
        confusion: object;
        flake_rate: number;
        tokens: { input: number };
        cost: number | null;
        mean_latency_ms: number | null;
      }[];
    };
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(
        readFileSync(join(packageRoot, 'config/judges-report.schema.json'), 'utf8'),
      ) as object,
    );
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const byName = new Map(report.judges.map((judge) => [judge.name, judge]));
    // Three samples per run; the judge wavered on two runs of 22.
    expect(byName.get('rubric-mini')).toMatchObject({
      n: 22,
      confusion: { truePositive: 3, falsePositive: 1, falseNegative: 2, trueNegative: 16 },
    });
    expect(byName.get('rubric-mini')?.flake_rate).toBeCloseTo(2 / 22, 12);
    // The Anthropic-wire judge: one fail re-asked under confirm_on_fail turned into a pass.
    expect(byName.get('desired-behaviour')).toMatchObject({
      n: 22,
      confusion: { truePositive: 4, falsePositive: 0, falseNegative: 1, trueNegative: 17 },
    });
    expect(byName.get('desired-behaviour')?.tokens.input).toBeGreaterThan(0);
    expect(byName.get('desired-behaviour')?.mean_latency_ms).not.toBeNull();
    expect(byName.get('suite-checks')).toMatchObject({
      cost: 0,
      mean_latency_ms: null,
      tokens: { input: 0 },
    });

    // The HTML report carries the terminal's figures, cell for cell, the best judge and the disagreements.
    const html = readFileSync(join(folder, 'first.html'), 'utf8');
    const rowOf = (name: string): string[] =>
      [
        ...(new RegExp(`<tr data-judge="${name}">(.*?)</tr>`).exec(html)?.[1] ?? '').matchAll(
          /<td>(.*?)<\/td>/g,
        ),
      ].map((cell) => (cell[1] ?? '').replace(/<br>/g, ' '));
    const terminalRow = (name: string): string[] =>
      (
        first.stdout
          .split('\n')
          .find((line) => line.includes(`│ ${name} `) || line.includes(`★ ${name} `)) ?? ''
      )
        .split('│')
        .slice(2, -1)
        .map((cell) => cell.trim());
    for (const judge of report.judges) {
      const cells = rowOf(judge.name);
      expect(cells[3]).toBe(judge.kappa.toFixed(3));
      expect(cells.slice(1)).toEqual(terminalRow(judge.name));
    }
    expect(html).toContain('<b>Best judge: desired-behaviour (highest κ, then lowest cost).</b>');
    expect(html).toContain('<h3>suite-checks disagrees on 4 run(s)</h3>');
  });

  it('refuses a judges file with an unknown field, naming the file, the judge and the field (exit 2)', async () => {
    const file = join(folder, 'unknown-field.yaml');
    writeFileSync(
      file,
      'judges:\n  - name: strict\n    llm: { model: judge-mini, rubric: be strict, temprature: 0 }\n',
    );
    const result = await compare([], file);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${file}: judges[0] (strict): llm.temprature: unknown field`,
    );
  });

  it('refuses a rating whose run no longer exists, naming the run, and loses no rating (exit 2)', async () => {
    const gone = join(folder, 'gone.sqlite');
    const store = new RatingStore(gone);
    store.put('golden', {
      run: 'recordings/bank-demo.sqlite#TC-001',
      rating: 'pass',
      at: '2026-12-01T00:00:00.000Z',
    });
    store.put('golden', {
      run: 'recordings/bank-demo.sqlite#TC-404',
      rating: 'fail',
      at: '2026-12-01T00:00:00.000Z',
    });
    store.close();
    const result = await runCliAsync([
      'judges',
      'compare',
      '--ratings',
      gone,
      '--judges',
      demoJudges,
      '--cassette',
      judgesCassette,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('recordings/bank-demo.sqlite#TC-404: the run no longer exists');
    const after = new RatingStore(gone, { readonly: true });
    expect(after.list('golden').map((rating) => rating.run)).toEqual([
      'recordings/bank-demo.sqlite#TC-001',
      'recordings/bank-demo.sqlite#TC-404',
    ]);
    after.close();
  });

  it('reports a judge model that answers non-JSON by the judge and the run, keeps the other judges, and exits 3', async () => {
    upstream.setScript(() => ({
      kind: 'json',
      body: chatCompletion({
        text: 'Looks fine to me!',
        usage: { prompt_tokens: 10, completion_tokens: 4 },
      }),
    }));
    const file = join(folder, 'chatty.yaml');
    writeFileSync(
      file,
      `judges:\n  - name: chatty\n    llm: { model: chatty-1, rubric: be strict }\n  - name: suite-checks\n    check: { suite: ${join(packageRoot, 'examples/bank/suite.yaml')}, now: "2026-11-30T12:00:00Z" }\n`,
    );
    const result = await compare(
      [
        '--mode',
        'record',
        '--upstream',
        upstream.url,
        '--cassette',
        join(folder, 'chatty-judges.sqlite'),
      ],
      file,
    );
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(
      /JUDGE_UNANSWERED: judge "chatty" \(chatty-1\): the judge model's answer is not JSON: Looks fine to me!/,
    );
    expect(result.stdout).toMatch(/chatty[\s\S]*\(\+22 unanswered\)/);
    expect(result.stdout).toContain('Best judge: suite-checks');
  });

  it('reports a judge with no recording once, not once per run, and says its HTTP status once (regression: 93 lines for 30 runs, "HTTP 404: HTTP 404:")', async () => {
    const file = join(folder, 'unrecorded.yaml');
    writeFileSync(
      file,
      'judges:\n  - name: unrecorded\n    llm: { model: never-recorded-1, rubric: be strict }\n',
    );
    const result = await compare([], file);
    expect(result.status).toBe(3);
    expect(result.stderr.match(/JUDGE_UNANSWERED/g)).toHaveLength(1);
    expect(result.stderr).toContain('(22 run(s) unanswered)');
    expect(result.stderr).not.toMatch(/HTTP 404: HTTP 404/);
    expect(result.stderr.trim().split('\n').length).toBeLessThan(5);
  });

  it('says how to rate first when there is no ratings database yet (regression: the README command failed on a fresh clone), and warns on a golden set too small to trust', async () => {
    const missing = await compare(['--ratings', join(folder, 'no-ratings-yet.sqlite')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no ratings yet');
    expect(missing.stderr).toContain('calltape rate <cassette>');
    const store = new RatingStore(ratings);
    store.putAll('tiny', store.list('golden').slice(0, 3));
    store.close();
    const tiny = await compare(['--set', 'tiny']);
    expect(tiny.stderr).toContain('the set "tiny" has 3 rated run(s); under 20');
    const whole = await compare();
    expect(whole.stderr).not.toContain('too noisy');
  });

  // Regression: without --cassette, a stranger following the README was told to run `calltape proxy --mode record`.
  it('says how to record judges (and where the example’s are) when the judges cassette does not exist', async () => {
    const result = await compare(['--cassette', join(folder, 'no-judges-yet.sqlite')]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('no such cassette to replay');
    expect(result.stderr).toContain('calltape judges compare … --mode record');
    expect(result.stderr).toContain('recordings/bank-judges.sqlite');
    expect(result.stderr).not.toContain('calltape proxy');
  });
});
