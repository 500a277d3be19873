import type { AlertSettings } from './policy-types.js';

export interface Alert {
  readonly policy: string;
  readonly passRate: number;
  readonly threshold: number;
  readonly evaluated: number;
  readonly failed: number;
  readonly windowMs: number;
  readonly at: number;
}

/**
 * Pass rates per policy over a sliding time window, and when they call for an alert: at least
 * `minCalls` evaluations in the window, a pass rate below the policy's threshold, and no alert
 * for that policy within the cool-down. Pure bookkeeping; the caller owns the clock.
 */
export class AlertWindow {
  /** Per policy: evaluation times and outcomes, oldest first. */
  private readonly events = new Map<string, { at: number[]; failed: boolean[]; head: number; failures: number }>();
  private readonly quietUntil = new Map<string, number>();

  constructor(
    private readonly settings: Pick<AlertSettings, 'windowMs' | 'minCalls' | 'cooldownMs'>,
    private readonly thresholds: ReadonlyMap<string, number>,
  ) {}

  /** Notes one evaluation of a policy at `now`; returns the alert it triggers, if any. */
  note(policy: string, failed: boolean, now: number): Alert | undefined {
    const threshold = this.thresholds.get(policy);
    if (threshold === undefined) return undefined;
    let series = this.events.get(policy);
    if (!series) this.events.set(policy, (series = { at: [], failed: [], head: 0, failures: 0 }));
    series.at.push(now);
    series.failed.push(failed);
    if (failed) series.failures++;
    const cutoff = now - this.settings.windowMs;
    while (series.head < series.at.length && (series.at[series.head] as number) <= cutoff) {
      if (series.failed[series.head]) series.failures--;
      series.head++;
    }
    if (series.head > 1024 && series.head * 2 > series.at.length) {
      series.at = series.at.slice(series.head);
      series.failed = series.failed.slice(series.head);
      series.head = 0;
    }
    const evaluated = series.at.length - series.head;
    if (evaluated < this.settings.minCalls) return undefined;
    const passRate = (evaluated - series.failures) / evaluated;
    if (passRate >= threshold || now < (this.quietUntil.get(policy) ?? 0)) return undefined;
    this.quietUntil.set(policy, now + this.settings.cooldownMs);
    return { policy, passRate, threshold, evaluated, failed: series.failures, windowMs: this.settings.windowMs, at: now };
  }
}
