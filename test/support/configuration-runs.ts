import type { CaseResult } from '../../src/scoring/case-result.js';
import type { ConfigurationSummary, SuiteRunResult } from '../../src/report/run-result.js';
import { summariseConfiguration } from '../../src/runner/gates.js';
import { caseResult } from './case-result.js';

/** Two run configurations of one suite for the side-by-side tests: `small` (priced, offers search) and `bare` (offers nothing). */
const judged = (status: 'pass' | 'fail' | 'error') => ({
  pass: status === 'pass',
  status,
  score: status === 'pass' ? 1 : 0,
  reasons: [],
  checks: [
    {
      check: 'judge' as const,
      status,
      score: status === 'pass' ? 1 : 0,
      reasons: [],
      message: null,
      details: {},
    },
  ],
});
export const cases: CaseResult[] = [
  caseResult('a', {
    run: 'small',
    tools: ['search'],
    tags: ['news'],
    tools_offered: ['search'],
    tokens: { input: 100, output: 10 },
    duration_ms: 100,
    trajectory: judged('pass'),
  }),
  caseResult('b', {
    run: 'small',
    status: 'fail',
    score: 0,
    tools: [],
    tags: ['greeting'],
    tools_offered: ['search'],
    tokens: { input: 100, output: 10 },
    duration_ms: 300,
    trajectory: judged('fail'),
  }),
  caseResult('a', {
    run: 'bare',
    status: 'unreliable',
    tools: ['search'],
    tags: ['news'],
    tools_offered: [],
    tokens: { input: 50, output: 5 },
    duration_ms: 50,
  }),
  caseResult('b', {
    run: 'bare',
    tools: [],
    tags: ['greeting'],
    tools_offered: [],
    tokens: { input: 50, output: 5 },
    duration_ms: 150,
    trajectory: judged('error'),
  }),
];
export const runs = [
  summariseConfiguration(cases, 'small', 'm-small', { input: 1, output: 10 }),
  summariseConfiguration(cases, 'bare', 'm-large', null),
];

/** A whole stored run of some configurations, as `calltape test` would store it. */
export function suiteRun(
  configurations: readonly ConfigurationSummary[],
  results: readonly CaseResult[],
): SuiteRunResult {
  const names = new Set(configurations.map((run) => run.run));
  return {
    suite: 'side-by-side',
    file: 'suite.yaml',
    mode: 'replay',
    drive: 'direct',
    cassette: 'recordings/side.sqlite',
    started_at: '2026-12-01T12:00:00.000Z',
    duration_ms: 10,
    runs: configurations,
    cases: results.filter((item) => names.has(item.run)),
    gates: [],
    passed: true,
  };
}
