import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../scoring/case-result.js';
import { htmlReport } from './html-report.js';
import type { SuiteRunResult } from './run-result.js';
import { terminalReport } from './terminal-report.js';

// Regression for issue #30: a case status from a shard blob went unescaped into the merged HTML
// (stored XSS). The schema refuses such a blob; the report escapes every field all the same.
const markup = '<img src=x onerror=alert(1)>';

/** A run whose every text is `text`; with `forgeNumbers`, its numbers and status are texts too (as a forged file may hold). */
function hostileRun(text: string, forgeNumbers = true): SuiteRunResult {
  const forged = forgeNumbers ? (text as unknown as number) : 1;
  const item = {
    run: text,
    test_id: text,
    index: 0,
    tags: [text],
    tools: [text],
    session: text,
    status: text as CaseResult['status'],
    score: forged,
    call: null,
    trajectory: null,
    calls: [{ name: text, arguments: text, mocked: true, round: forged }],
    problems: [text],
    error: text,
    duration_ms: forged,
    rounds: forged,
    tokens: { input: forged, output: forged },
    agent: { exit_code: forged, signal: text, timed_out: false, stdout: text, stderr: text },
  } satisfies CaseResult;
  return {
    suite: text,
    file: text,
    mode: 'replay',
    drive: 'agent',
    cassette: text,
    started_at: text,
    duration_ms: forged,
    runs: [
      {
        run: text,
        model: text,
        total: forged,
        passed: forged,
        failed: forged,
        errors: forged,
        unreliable: forged,
        pass_rate: forged,
        mean_score: forged,
        tools_offered: [text],
      },
    ],
    cases: [item],
    gates: [
      {
        gate: 'per_tool',
        run: text,
        subject: text,
        threshold: 1,
        actual: null,
        pass: false,
        message: text,
      },
    ],
    passed: false,
  };
}

describe('reports of a run read from a file anyone wrote', () => {
  it('escape a case status that is markup, and every other field, in the HTML report', () => {
    const page = htmlReport(hostileRun(markup));
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('never let a field open a tag or leave an attribute in the HTML report', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const hostile = `${text}"'<hostile-tag>${text}`;
        const page = htmlReport(hostileRun(hostile));
        expect(page).not.toContain('<hostile-tag>');
        expect(page).not.toContain(`"'`);
      }),
      { numRuns: 50 },
    );
  });

  it('show control characters as escapes in the terminal report', () => {
    const text = terminalReport(hostileRun('\u001b]52;c;ZXZpbA==\u0007\u001b[2J', false), false);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J');
  });
});
