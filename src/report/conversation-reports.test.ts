import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { htmlReport } from './html-report.js';
import { junitReport } from './junit-report.js';
import { markdownReport } from './markdown-report.js';
import type { SuiteRunResult } from './run-result.js';
import { terminalReport } from './terminal-report.js';

const lookup = {
  name: 'get_order',
  arguments: '{"id":"A-17"}',
  mocked: true,
  round: 2,
  user_turn: 2,
};
const conversationCase = caseResult('refund', {
  status: 'fail',
  score: 0.5,
  calls: [lookup],
  problems: ['turn 3: calls: issue_refund was not called'],
  conversation: {
    turns: [
      {
        turn: 1,
        user: 'I want a refund',
        reply: 'Which order?',
        calls: [],
        rounds: 1,
        status: 'pass',
        score: 1,
        call: null,
        trajectory: null,
        problems: [],
      },
      {
        turn: 2,
        user: 'A-17 <b>',
        reply: null,
        calls: [lookup],
        rounds: 2,
        status: 'pass',
        score: 1,
        call: null,
        trajectory: null,
        problems: [],
      },
      {
        turn: 3,
        user: 'yes',
        reply: 'Done',
        calls: [],
        rounds: 1,
        status: 'fail',
        score: 0,
        call: null,
        trajectory: null,
        problems: ['calls: issue_refund was not called'],
      },
    ],
    ended_by: 'script',
    ended_reason: null,
    mean_turn_score: 0.667,
    all_turns_pass: false,
  },
});
const result: SuiteRunResult = {
  suite: 'refunds',
  file: 'refunds.yaml',
  mode: 'replay',
  drive: 'direct',
  cassette: 'c.sqlite',
  started_at: '2026-12-03T00:00:00.000Z',
  duration_ms: 1,
  runs: [
    {
      run: 'default',
      model: 'm',
      total: 1,
      passed: 0,
      failed: 1,
      errors: 0,
      unreliable: 0,
      pass_rate: 0,
      mean_score: 0.5,
      tools_offered: [],
    },
  ],
  cases: [conversationCase],
  gates: [],
  passed: false,
};
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

  it('HTML: a timeline by user turn, escaped', () => {
    const page = htmlReport(result);
    expect(page).toContain(
      '<span class="round">turn 2 · pass</span> <q>A-17 &lt;b&gt;</q> <code>get_order({&quot;id&quot;:&quot;A-17&quot;})</code>',
    );
    expect(page).toContain('turn 3 · fail');
    expect(page).toContain('→ <q>Which order?</q>');
  });
});
