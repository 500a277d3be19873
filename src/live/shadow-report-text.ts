import Table from 'cli-table3';
import type { PassRateRow, ShadowReport } from './shadow-report.js';

const pct = (rate: number): string => `${(rate * 100).toFixed(1)}%`;

/** `calltape shadow report` for a terminal: pass rates per tool, policy and model, then the worst offenders. */
export function shadowReportText(report: ShadowReport): string {
  const lines = [
    `Shadow scores from ${new Date(report.since).toISOString()} to ${new Date(report.until).toISOString()}: ${report.calls} calls scored, ${report.sessions.total} sessions (${report.sessions.failed} failed)`,
    '',
  ];
  if (report.unscored > 0)
    lines.splice(
      1,
      0,
      `${report.unscored} call(s) could not be scored: error verdicts, reason scoring_error (see the offenders below).`,
    );
  if (report.calls === 0 && report.sessions.total === 0 && report.unscored === 0)
    return `${lines[0]}\nNothing was scored in this window.\n`;
  const rateTable = (title: string, rows: readonly PassRateRow[], scores: boolean): void => {
    const table = new Table({
      head: [title, 'evaluated', 'failed', 'pass rate', ...(scores ? ['mean score'] : [])],
      style: { head: [], border: [] },
    });
    for (const row of rows)
      table.push([
        row.name,
        row.evaluated,
        row.failed,
        pct(row.passRate),
        ...(scores ? [row.meanScore === null ? '-' : row.meanScore.toFixed(3)] : []),
      ]);
    lines.push(table.toString(), '');
  };
  rateTable('tool', report.byTool, true);
  rateTable('policy', report.byPolicy, false);
  rateTable('model', report.byModel, true);
  if (report.offenders.length > 0) {
    const table = new Table({
      head: ['worst offenders: policy', 'tool', 'reason', 'count', 'example'],
      style: { head: [], border: [] },
      colWidths: [null, null, null, null, 60],
      wordWrap: true,
    });
    for (const offender of report.offenders)
      table.push([
        offender.policy,
        offender.tool || '(session)',
        offender.reason,
        offender.count,
        `${offender.example} (session ${offender.session})`,
      ]);
    lines.push(table.toString(), '');
  }
  if (report.worstSessions.length > 0) {
    const table = new Table({
      head: ['failing session', 'verdict', 'failures', 'ended'],
      style: { head: [], border: [] },
    });
    for (const session of report.worstSessions)
      table.push([
        session.session,
        session.verdict,
        session.failures,
        new Date(session.endedAt).toISOString(),
      ]);
    lines.push(table.toString(), '');
  }
  return `${lines.join('\n')}`;
}
