import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';

const bank = 'examples/bank/suite.yaml';

describe('calltape test on a fresh CI checkout', () => {
  it('lists what a filter selects by test id, tag or tool, without running anything', async () => {
    const listed = await runCliAsync(['test', bank, '--list', '--filter', 'TC-01[23],safety']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(
      'examples/bank/suite.yaml: 4 case(s) · cassette recordings/bank-demo.sqlite',
    );
    expect(listed.stdout).toMatch(/^ {2}TC-012 {2}tags: search {2}tools: search_transactions$/m);
    expect(listed.stdout.trim().split('\n')).toHaveLength(5);
    const byTool = await runCliAsync(['test', bank, '--list', '--filter', 'execute_*']);
    expect(byTool.stdout).toContain('8 case(s)');
    const none = await runCliAsync(['test', bank, '--filter', 'no-such-case']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('--filter no-such-case: no case matches by test id, tag or tool');
  });

  it('runs part of a suite, scores a date case the same on any day (the suite pins its clock), and creates the report folders', async () => {
    const folder = join(temporaryFolder(), 'fresh');
    const reports = ['junit.xml', 'run.json', 'run.md', 'run.html'].map((name) =>
      join(folder, 'reports', 'deep', name),
    );
    const [junit, json, markdown, html] = reports as [string, string, string, string];
    // TC-013 expects {{TODAY-29d}}: without the suite's `now` it would fail on any day but the recording's.
    const result = await runCliAsync([
      'test',
      bank,
      '--filter',
      'TC-013,safety',
      '--junit',
      junit,
      '--json',
      json,
      '--markdown',
      markdown,
      '--html',
      html,
      '--runs-db',
      join(folder, 'db', 'runs.sqlite'),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('pass per_tag safety: 100% (2/2 cases passed)');
    // The per-tool gate's cases were filtered out, so it is left out rather than failed.
    expect(result.stdout).not.toContain('per_tool execute_transfer');
    for (const path of [...reports, join(folder, 'db', 'runs.sqlite')])
      expect(existsSync(path), path).toBe(true);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
      runs: [{ total: 3, passed: 3 }],
    });
  });

  it('a max_regression gate without --baseline is a configuration error (exit 2), not a silent pass', async () => {
    const folder = temporaryFolder();
    const suite = join(folder, 'suite.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'gated',
        model: 'm',
        gates: { max_regression: 0.05 },
        cases: [{ test_id: 'a', prompt: 'hi', expected_tool: null }],
      }),
    );
    const result = await runCliAsync(['test', suite]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('gates.max_regression: needs a baseline to compare with');
    expect(result.stderr).toContain('hint: Pass --baseline');
  });
});
