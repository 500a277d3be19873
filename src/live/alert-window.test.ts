import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlertWindow } from './alert-window.js';

describe('AlertWindow', () => {
  const settings = { windowMs: 60_000, minCalls: 4, cooldownMs: 300_000 };

  it('alerts when the pass rate over the window drops below the threshold, with enough evaluations', () => {
    const window = new AlertWindow(settings, new Map([['limits', 0.75]]));
    expect(window.note('limits', true, 0)).toBeUndefined();
    expect(window.note('limits', false, 1)).toBeUndefined();
    expect(window.note('limits', false, 2)).toBeUndefined();
    // 4 evaluations, 1 failed: 75% is not below 75%.
    expect(window.note('limits', false, 3)).toBeUndefined();
    expect(window.note('limits', true, 4)).toEqual({
      policy: 'limits',
      passRate: 0.6,
      threshold: 0.75,
      evaluated: 5,
      failed: 2,
      windowMs: 60_000,
      at: 4,
    });
    expect(window.note('other', true, 5)).toBeUndefined();
  });

  it('forgets evaluations older than the window', () => {
    const window = new AlertWindow(settings, new Map([['limits', 0.9]]));
    for (let index = 0; index < 3; index++) window.note('limits', true, index);
    // The three failures fall out of the window before the fourth evaluation arrives.
    expect(window.note('limits', false, 70_000)).toBeUndefined();
    expect(window.note('limits', false, 70_001)).toBeUndefined();
  });

  it('never alerts twice for a policy within the cool-down, whatever the traffic', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 30_000 })), { maxLength: 400 }),
        (steps) => {
          const window = new AlertWindow(settings, new Map([['p', 0.99]]));
          let now = 0;
          const alerts: number[] = [];
          for (const [failed, gap] of steps) {
            now += gap;
            const alert = window.note('p', failed, now);
            if (alert) {
              expect(alert.passRate).toBeLessThan(0.99);
              expect(alert.evaluated).toBeGreaterThanOrEqual(settings.minCalls);
              alerts.push(now);
            }
          }
          for (let index = 1; index < alerts.length; index++)
            expect(
              (alerts[index] as number) - (alerts[index - 1] as number),
            ).toBeGreaterThanOrEqual(settings.cooldownMs);
        },
      ),
    );
  });
});

describe('AlertWindow memory', () => {
  it('keeps a fixed number of buckets however many evaluations arrive', () => {
    const window = new AlertWindow(
      { windowMs: 600_000, minCalls: 10, cooldownMs: 1_000 },
      new Map([['p', 0.5]]),
    );
    for (let now = 0; now < 3_600_000; now += 5) window.note('p', false, now);
    const series = (
      window as unknown as { series: Map<string, { buckets: unknown[]; head: number }> }
    ).series.get('p');
    expect((series?.buckets.length ?? 0) - (series?.head ?? 0)).toBeLessThanOrEqual(601);
  });
});
