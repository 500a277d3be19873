import { describe, expect, it } from 'vitest';
import { hostileRun } from '../../test/support/report-runs.js';
import { terminalReport } from './terminal-report.js';

// The HTML report became calltape view's export: test/e2e/view-export-reports.test.ts keeps
// this file's HTML checks (issue #30's markup status among them) against it.
describe('reports of a run read from a file anyone wrote', () => {
  it('show control characters as escapes in the terminal report', () => {
    const text = terminalReport(hostileRun('\u001b]52;c;ZXZpbA==\u0007\u001b[2J', false), false);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J');
  });
});
