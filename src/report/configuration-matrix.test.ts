import { describe, expect, it } from 'vitest';
import { cases, runs, suiteRun } from '../../test/support/configuration-runs.js';
import {
  configurationMatrix,
  labelledConfigurations,
  matrixLines,
} from './configuration-matrix.js';

describe('configurationMatrix', () => {
  it('puts each configuration in a column: what it offered, its rates (an unreliable case counted as failing, as the gates count it), judges, tokens, cost, latency', () => {
    const matrix = configurationMatrix({ runs, cases });
    expect(matrix.columns).toEqual([
      {
        run: 'small',
        model: 'm-small',
        tools_offered: ['search'],
        cases: 2,
        passed: 1,
        unreliable: 0,
        counted: 2,
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
        counted: 2,
        pass_rate: 0.5,
        mean_score: 0.5,
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

describe('labelledConfigurations (calltape compare A B)', () => {
  it('names each configuration after its run: the run alone for one configuration or the one named, run:configuration for several', () => {
    const both = labelledConfigurations([
      { label: '#1', result: { runs, cases } },
      { label: '#2:small', result: { runs, cases }, config: 'small' },
    ]);
    expect(both.runs.map((run) => run.run)).toEqual(['#1:small', '#1:bare', '#2:small']);
    expect(both.cases.map((item) => `${item.run}/${item.test_id}`)).toEqual([
      '#1:small/a',
      '#1:small/b',
      '#1:bare/a',
      '#1:bare/b',
      '#2:small/a',
      '#2:small/b',
    ]);
    const matrix = configurationMatrix(both);
    // The same figures as the run's own matrix, column for column.
    expect(matrix.columns.map(({ run: _run, ...figures }) => figures)).toEqual(
      [
        ...configurationMatrix({ runs, cases }).columns,
        configurationMatrix({ runs, cases }).columns[0],
      ].map((column) => {
        const { run: _run, ...figures } = column as NonNullable<typeof column>;
        return figures;
      }),
    );
    const single = suiteRun([runs[1] as NonNullable<(typeof runs)[1]>], cases);
    expect(labelledConfigurations([{ label: '#3', result: single }]).runs[0]?.run).toBe('#3');
  });
});
