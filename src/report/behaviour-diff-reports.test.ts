import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { behaviourDiff } from '../runner/behaviour-diff.js';
import { htmlReport } from './html-report.js';
import { junitReport } from './junit-report.js';
import { markdownReport } from './markdown-report.js';
import type { SuiteRunResult } from './run-result.js';
import { terminalReport } from './terminal-report.js';

const hostile = '<img src=x onerror=alert(1)>|`';
const call = (city: string) => ({
  name: hostile,
  arguments: JSON.stringify({ city }),
  mocked: false,
  round: 1,
});

function compared(): SuiteRunResult {
  const before = [caseResult(hostile, { calls: [call('Paris')] })];
  const after = [
    caseResult(hostile, {
      status: 'fail',
      score: 0.5,
      calls: [call('<b>Rome</b>')],
      problems: ['city: expected "Paris", got "<b>Rome</b>"'],
    }),
    caseResult('missed', {
      status: 'error',
      score: 0,
      error:
        'replay miss: calltape: cassette w.sqlite has no recording for POST /v1/chat/completions; the nearest recording (r1) differs at messages[0].content:\n  messages[0].content: "a" → "b"\nRecord what is missing with calltape test w.json --mode record.',
      problems: [
        'replay miss: calltape: cassette w.sqlite has no recording for POST /v1/chat/completions; the nearest recording (r1) differs at messages[0].content:\n  messages[0].content: "a" → "b"\nRecord what is missing with calltape test w.json --mode record.',
      ],
    }),
  ];
  return {
    suite: 's',
    file: 's.json',
    mode: 'replay',
    drive: 'direct',
    cassette: 'w.sqlite',
    started_at: '2026-12-03T12:00:00.000Z',
    duration_ms: 1,
    runs: [
      {
        run: 'default',
        model: null,
        total: 2,
        passed: 0,
        failed: 1,
        errors: 1,
        pass_rate: 0,
        mean_score: 0.25,
      },
    ],
    cases: after,
    gates: [],
    passed: false,
    baseline: {
      kind: 'run',
      label: 'run #7',
      run_id: 7,
      started_at: null,
      commit: null,
      branch: 'main',
      diff: behaviourDiff(before, after),
    },
  };
}

describe('the behaviour diff in the reports', () => {
  it('escapes every text of the HTML table', () => {
    const html = htmlReport(compared());
    expect(html).toContain('<h2>What changed</h2>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>Rome');
    expect(html).toContain(
      '<td>&lt;img src=x onerror=alert(1)&gt;|` city: &quot;Paris&quot; → &quot;&lt;b&gt;Rome&lt;/b&gt;&quot;</td>',
    );
  });

  it('keeps the Markdown table one row per case, whatever the arguments hold', () => {
    const markdown = markdownReport(compared());
    const row = markdown.split('\n').find((line) => line.startsWith('| &lt;img'));
    expect(row).toBeDefined();
    // Seven cells: the pipe in the tool name is escaped, not a column.
    expect(row?.split(/(?<!\\)\|/).length).toBe(9);
  });

  it('prints the comparison as one table in the terminal', () => {
    const text = terminalReport(compared(), false);
    expect(text).toContain('Compared with run #7 (main): pass rate 100% → 0%');
    expect(text).toContain('pass → fail (regression)');
  });

  it('gives a JUnit message the whole first difference, not its first line', () => {
    const junit = new XMLParser({ ignoreAttributes: false }).parse(junitReport(compared())) as {
      testsuites: {
        testsuite: {
          testcase: {
            failure?: { '@_message': string; '#text': string };
            error?: { '@_message': string };
          }[];
        };
      };
    };
    const [failing, missed] = junit.testsuites.testsuite.testcase;
    expect(failing?.failure?.['@_message']).toBe(
      `city: expected "Paris", got "<b>Rome</b>"; since run #7: ${hostile} city: "Paris" → "<b>Rome</b>"`,
    );
    expect(missed?.error?.['@_message']).toBe(
      'replay miss: calltape: cassette w.sqlite has no recording for POST /v1/chat/completions; the nearest recording (r1) differs at messages[0].content: messages[0].content: "a" → "b"',
    );
  });
});
