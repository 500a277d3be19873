import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { conversationRun } from '../../test/support/report-runs.js';
import { junitReport } from './junit-report.js';
import { markdownReport } from './markdown-report.js';
import { terminalReport } from './terminal-report.js';

const result = conversationRun;
const turnLines = [
  'turn 1 pass: user "I want a refund" → (no tool call); replied "Which order?"',
  'turn 2 pass: user "A-17 <b>" → get_order({"id":"A-17"}) [mocked]',
  'turn 3 fail: user "yes" → (no tool call); replied "Done"',
  'ended by script; mean turn score 0.667',
];

describe('reports of a conversation case show each turn', () => {
  it('terminal and Markdown: what the user said, the calls and the verdict of every turn', () => {
    const terminal = terminalReport(result, false);
    for (const line of turnLines) expect(terminal).toContain(`      ${line}`);
    const markdown = markdownReport(result);
    for (const line of turnLines) expect(markdown).toContain(line);
  });

  it('JUnit: one testcase per case, its turns in the failure text, the failing turn in the message', () => {
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(junitReport(result)) as {
      testsuites: {
        testsuite: { testcase: { failure: { '@_message': string; '#text': string } } };
      };
    };
    const failure = parsed.testsuites.testsuite.testcase.failure;
    expect(failure['@_message']).toBe('turn 3: calls: issue_refund was not called');
    for (const line of turnLines) expect(failure['#text']).toContain(line);
  });
});
