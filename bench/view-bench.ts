/**
 * `node dist/bench/view-bench.js`: calltape view's API on a large runs database — 1,000 runs of
 * 300 cases each (`--runs N`, `--cases N`, `--quick` for 50 × 300). Times the answers the app
 * fetches: the runs list (default limit and all 1,000), a run's page, a case's page (with its
 * recording read from the bank demo's cassette) and a comparison, the median of 5; then, in
 * headless Chromium, the time to draw the runs list, a run page and a case page (min / median /
 * max of `--rounds`, default 5) against the issue's targets, and the shipped assets' gzipped
 * size. Prints numbers, asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/package-root.js';
import { jsonReport } from '../src/report/json-report.js';
import type { SuiteRunResult } from '../src/report/run-result.js';
import { summariseConfiguration } from '../src/runner/gates.js';
import { RunStore } from '../src/runner/run-store.js';
import type { CaseResult } from '../src/scoring/case-result.js';
import { answerApi } from '../src/view/view-api.js';
import { startViewServer } from '../src/view/view-server.js';
import { caseResult } from '../test/support/case-result.js';
import { numberFlag, quick } from './bench-flags.js';
import { shippedAssetsGzipped, timeScreens } from './view-render.js';

const runCount = numberFlag('--runs', quick ? 50 : 1000);
const caseCount = numberFlag('--cases', 300);
const folder = mkdtempSync(join(tmpdir(), 'calltape-view-bench-'));
const runsDb = join(folder, 'calltape-runs.sqlite');
const cassette = join(packageRoot, 'recordings/bank-demo.sqlite');

function run(index: number): SuiteRunResult {
  const cases: CaseResult[] = Array.from({ length: caseCount }, (_, position) =>
    caseResult(`TC-${String((position % 22) + 1).padStart(3, '0')}-${position}`, {
      index: position,
      session: `TC-${String((position % 22) + 1).padStart(3, '0')}`,
      status: (position + index) % 17 === 0 ? 'fail' : 'pass',
      score: (position + index) % 17 === 0 ? 0.5 : 1,
      tags: ['balance', `group-${position % 5}`],
      tools: ['get_balance'],
      calls: [
        { name: 'get_balance', arguments: '{"account_type":"savings"}', mocked: false, round: 1 },
      ],
    }),
  );
  return {
    suite: `suite-${index % 4}`,
    file: join(packageRoot, 'examples/bank/suite.yaml'),
    mode: 'replay',
    drive: 'agent',
    cassette,
    started_at: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString(),
    duration_ms: 60_000,
    runs: [summariseConfiguration(cases, 'default', 'claude-sonnet-4-5', null)],
    cases,
    gates: [],
    passed: true,
    git: {
      commit: index.toString(16).padStart(12, '0'),
      branch: index % 3 === 0 ? 'main' : 'feature',
    },
  };
}

const filling = performance.now();
const store = new RunStore(runsDb);
for (let index = 0; index < runCount; index++) {
  const result = run(index);
  store.save(result, 0, jsonReport(result, 0));
}
store.close();
process.stdout.write(
  `calltape view API: ${runCount} runs × ${caseCount} cases (stored in ${((performance.now() - filling) / 1000).toFixed(1)} s)\n`,
);

const sources = { runsDb, cwd: packageRoot };
function median(label: string, segments: string[], query = ''): void {
  const times: number[] = [];
  let bytes = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = performance.now();
    const answer = answerApi(segments, new URLSearchParams(query), sources);
    bytes = JSON.stringify(answer.body).length;
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${label}: ${answer.status}`);
  }
  times.sort((left, right) => left - right);
  process.stdout.write(
    `  ${label.padEnd(34)} ${(times[2] ?? 0).toFixed(1).padStart(8)} ms  ${(bytes / 1024).toFixed(0).padStart(6)} KB\n`,
  );
}
median('runs list (newest 200)', ['runs']);
median(`runs list (all ${runCount})`, ['runs'], `limit=${runCount}`);
median('runs list filtered by suite', ['runs'], 'suite=suite-1');
median(`run page (${caseCount} cases)`, ['runs', String(runCount)]);
median('case page (with its recording)', [
  'runs',
  String(runCount),
  'cases',
  'default',
  'TC-010-9',
]);
median('two runs compared', ['compare', String(runCount - 1), String(runCount)]);

const assets = shippedAssetsGzipped();
process.stdout.write(
  `calltape view app: ${assets.files} files, ${(assets.raw / 1024).toFixed(1)} KB, ${(assets.gzipped / 1024).toFixed(1)} KB gzipped (budget 300 KB)\n`,
);
const server = await startViewServer({ ...sources, host: '127.0.0.1', port: 0, token: undefined });
process.stdout.write(
  'calltape view in Chromium, navigation start → screen drawn (min / median / max):\n',
);
const runPage = `#/runs/${runCount}`;
const casePage = `#/runs/${runCount}/cases/default/TC-010-9`;
try {
  await timeScreens(
    server.appUrl,
    [
      { label: 'runs list (newest 200)', hash: '#/runs', targetMs: 1000 },
      { label: `run page (${caseCount} cases)`, hash: runPage, targetMs: 1000 },
      { label: 'case page (with its recording)', hash: casePage, targetMs: 300 },
      { label: 'case page, opened from its run', hash: casePage, from: runPage, targetMs: 300 },
    ],
    numberFlag('--rounds', 5),
  );
} finally {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}
