import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { comparedRun as compared, hostileName } from '../../test/support/report-runs.js';
import { junitReport } from './junit-report.js';
import { markdownReport } from './markdown-report.js';
import { terminalReport } from './terminal-report.js';

const hostile = hostileName;

describe('the behaviour diff in the reports', () => {
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
