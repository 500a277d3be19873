import type { Alert } from './alert-window.js';
import { shownVerdict, type CallVerdict, type SessionVerdict } from './verdict-types.js';

/** Pass counts of one tool in one minute. */
interface MinuteCounts {
  readonly minute: number;
  passed: number;
  failed: number;
}

export interface ActivitySnapshot {
  readonly calls: readonly CallVerdict[];
  readonly failingSessions: readonly SessionVerdict[];
  /** Alerts fired, oldest first, so a dashboard opened after one fired still shows it. */
  readonly alerts: readonly Alert[];
  /** Per tool: calls passed and failed per minute (epoch minutes), oldest first. */
  readonly passRates: { readonly [tool: string]: readonly MinuteCounts[] };
}

/**
 * What the dashboard shows when it opens, before the feed streams more: the latest scored calls
 * (and calls that could not be scored, as `error` verdicts),
 * the latest failing sessions, and per-tool pass counts per minute over the last hour. Bounded in
 * memory whatever the traffic.
 */
export class RecentActivity {
  private calls: CallVerdict[] = [];
  private sessions: SessionVerdict[] = [];
  private alerts: Alert[] = [];
  private readonly minutes = new Map<string, MinuteCounts[]>();

  constructor(
    private readonly maxCalls = 200,
    private readonly maxSessions = 50,
    private readonly keepMinutes = 60,
    private readonly maxTools = 50,
    private readonly maxAlerts = 50,
  ) {}

  addAlert(alert: Alert): void {
    this.alerts.push(alert);
    if (this.alerts.length > this.maxAlerts * 2) this.alerts = this.alerts.slice(-this.maxAlerts);
  }

  addCalls(verdicts: readonly CallVerdict[]): void {
    for (const call of verdicts) {
      if (!shownVerdict(call)) continue;
      this.calls.push(call);
      // An error is no verdict on the agent: listed, but left out of the pass rates.
      if (call.verdict === 'error') continue;
      const minute = Math.floor(call.at / 60_000);
      let series = this.minutes.get(call.tool);
      if (!series) {
        if (this.minutes.size >= this.maxTools) continue;
        this.minutes.set(call.tool, (series = []));
      }
      let last = series[series.length - 1];
      if (!last || last.minute < minute) series.push((last = { minute, passed: 0, failed: 0 }));
      const bucket = last.minute === minute ? last : series.find((item) => item.minute === minute);
      if (bucket) bucket[call.verdict === 'pass' ? 'passed' : 'failed']++;
      while (series.length > 0 && (series[0] as MinuteCounts).minute <= minute - this.keepMinutes)
        series.shift();
    }
    if (this.calls.length > this.maxCalls * 2) this.calls = this.calls.slice(-this.maxCalls);
  }

  addSessions(verdicts: readonly SessionVerdict[]): void {
    for (const session of verdicts) if (session.verdict !== 'pass') this.sessions.push(session);
    if (this.sessions.length > this.maxSessions * 2)
      this.sessions = this.sessions.slice(-this.maxSessions);
  }

  snapshot(): ActivitySnapshot {
    return {
      calls: this.calls.slice(-this.maxCalls),
      failingSessions: this.sessions.slice(-this.maxSessions),
      alerts: this.alerts.slice(-this.maxAlerts),
      passRates: Object.fromEntries(this.minutes),
    };
  }
}
