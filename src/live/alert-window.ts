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

/** Evaluations counted in one slice of time. */
interface Bucket {
  readonly start: number;
  evaluated: number;
  failed: number;
}

/**
 * Pass rates per policy over a sliding time window, and when they call for an alert: at least
 * `minCalls` evaluations in the window, a pass rate below the policy's threshold, and no alert
 * for that policy within the cool-down. Evaluations are counted in buckets of 1/600 of the window
 * (at least a second), so memory stays fixed however busy the traffic; the window's far edge is
 * as precise as one bucket. Pure bookkeeping; the caller owns the clock.
 */
export class AlertWindow {
  private readonly series = new Map<
    string,
    { buckets: Bucket[]; head: number; evaluated: number; failed: number }
  >();
  private readonly quietUntil = new Map<string, number>();
  private readonly bucketMs: number;

  constructor(
    private readonly settings: Pick<AlertSettings, 'windowMs' | 'minCalls' | 'cooldownMs'>,
    private readonly thresholds: ReadonlyMap<string, number>,
  ) {
    this.bucketMs = Math.max(1_000, Math.ceil(settings.windowMs / 600));
  }

  /** Notes one evaluation of a policy at `now`; returns the alert it triggers, if any. */
  note(policy: string, failed: boolean, now: number): Alert | undefined {
    const threshold = this.thresholds.get(policy);
    if (threshold === undefined) return undefined;
    let series = this.series.get(policy);
    if (!series)
      this.series.set(policy, (series = { buckets: [], head: 0, evaluated: 0, failed: 0 }));
    const start = now - (now % this.bucketMs);
    let last = series.buckets[series.buckets.length - 1];
    if (!last || last.start !== start)
      series.buckets.push((last = { start, evaluated: 0, failed: 0 }));
    last.evaluated++;
    series.evaluated++;
    if (failed) {
      last.failed++;
      series.failed++;
    }
    // Buckets that ended before the window began leave it.
    for (
      let first = series.buckets[series.head];
      first && first.start + this.bucketMs <= now - this.settings.windowMs;
      first = series.buckets[series.head]
    ) {
      series.evaluated -= first.evaluated;
      series.failed -= first.failed;
      series.head++;
    }
    if (series.head > 64 && series.head * 2 > series.buckets.length) {
      series.buckets = series.buckets.slice(series.head);
      series.head = 0;
    }
    if (series.evaluated < this.settings.minCalls) return undefined;
    const passRate = (series.evaluated - series.failed) / series.evaluated;
    if (passRate >= threshold || now < (this.quietUntil.get(policy) ?? 0)) return undefined;
    this.quietUntil.set(policy, now + this.settings.cooldownMs);
    return {
      policy,
      passRate,
      threshold,
      evaluated: series.evaluated,
      failed: series.failed,
      windowMs: this.settings.windowMs,
      at: now,
    };
  }
}
