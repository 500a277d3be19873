import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { summariseConfiguration } from '../runner/gates.js';
import { configurationMatrix, matrixLines } from './configuration-matrix.js';

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
const cases = [
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
const runs = [
  summariseConfiguration(cases, 'small', 'm-small', { input: 1, output: 10 }),
  summariseConfiguration(cases, 'bare', 'm-large', null),
];

describe('configurationMatrix', () => {
  it('puts each configuration in a column: what it offered, its rates without the unreliable cases, judges, tokens, cost, latency', () => {
    const matrix = configurationMatrix({ runs, cases });
    expect(matrix.columns).toEqual([
      {
        run: 'small',
        model: 'm-small',
        tools_offered: ['search'],
        cases: 2,
        passed: 1,
        unreliable: 0,
        pass_rate: 0.5,
        mean_score: 0.5,
        judge: { pass: 1, fail: 1, error: 0 },
        tokens: { input: 200, output: 20 },
        cost_usd: 0.0004,
        mean_latency_ms: 200,
      },
      {
        run: 'bare',
        model: 'm-large',
        tools_offered: [],
        cases: 2,
        passed: 1,
        unreliable: 1,
        pass_rate: 1,
        mean_score: 1,
        judge: { pass: 0, fail: 0, error: 1 },
        tokens: { input: 100, output: 10 },
        cost_usd: null,
        mean_latency_ms: 100,
      },
    ]);
    // The unreliable case is in no rate: the configuration without `search` has no cell for it.
    expect(matrix.by_tool).toEqual([
      { group: 'search', cells: [{ passed: 1, total: 1, pass_rate: 1 }, null] },
    ]);
    expect(matrix.by_tag.map((row) => row.group)).toEqual(['greeting', 'news']);
    expect(matrix.by_tag[1]?.cells).toEqual([{ passed: 1, total: 1, pass_rate: 1 }, null]);
  });

  it('gives the terminal and the HTML report the same text cells', () => {
    const lines = matrixLines(configurationMatrix({ runs, cases }));
    expect(lines.find((line) => line.kind === 'row' && line.label === 'tools offered')).toEqual({
      kind: 'row',
      label: 'tools offered',
      cells: ['search', '(none)'],
    });
    expect(lines.find((line) => line.kind === 'row' && line.label === 'cost')).toEqual({
      kind: 'row',
      label: 'cost',
      cells: ['$0.0004', '-'],
    });
    expect(lines.filter((line) => line.kind === 'section')).toEqual([
      { kind: 'section', title: 'pass rate per expected tool' },
      { kind: 'section', title: 'pass rate per tag' },
    ]);
  });

  it('says "unknown" for a report written before the tools offered were kept', () => {
    const { tools_offered: _dropped, ...older } = runs[0] as NonNullable<(typeof runs)[0]>;
    expect(configurationMatrix({ runs: [older], cases: [] }).columns[0]?.tools_offered).toBeNull();
  });
});
