import type { StreamSample } from './measure.js';
import type { ProbeEvent } from './process-probe.js';

/** What the proxy was doing while the slowest stream of a phase waited for its first byte. */
export interface SlowRequest {
  readonly ttfbMs: number;
  readonly ttfbP50Ms: number;
  /** Per kind of event inside the wait: how many, and their summed and longest duration (ms). */
  readonly during: Record<string, { count: number; totalMs: number; maxMs: number }>;
  /** Of the stalls inside the wait: ms the proxy's main thread was running, and ms it waited for a CPU. */
  readonly stalls: { readonly runMs: number; readonly waitMs: number };
  /** Everything but arrivals inside the wait, ms after the request was sent. */
  readonly timeline: readonly {
    readonly atMs: number;
    readonly kind: string;
    readonly ms?: number;
  }[];
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** Picks the slowest first byte among `samples` and lays the probe's events of its wait beside it. */
export function slowestRequest(
  samples: readonly StreamSample[],
  events: readonly ProbeEvent[],
): SlowRequest | undefined {
  const sorted = [...samples].sort((a, b) => a.ttfbMs - b.ttfbMs);
  const slow = sorted.at(-1);
  if (!slow) return undefined;
  const end = slow.startedAt + slow.ttfbMs;
  const inside = events.filter((event) => event.at >= slow.startedAt - 1 && event.at <= end);
  const during: SlowRequest['during'] = {};
  for (const event of inside) {
    const entry = (during[event.kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    entry.count++;
    entry.totalMs = round(entry.totalMs + (event.ms ?? 0));
    entry.maxMs = round(Math.max(entry.maxMs, event.ms ?? 0));
  }
  const stalls = inside.filter((event) => event.kind === 'stall');
  return {
    ttfbMs: round(slow.ttfbMs),
    stalls: {
      runMs: round(stalls.reduce((sum, event) => sum + (event.runMs ?? 0), 0)),
      waitMs: round(stalls.reduce((sum, event) => sum + (event.waitMs ?? 0), 0)),
    },
    ttfbP50Ms: round(sorted[Math.floor(sorted.length / 2)]?.ttfbMs ?? 0),
    during,
    timeline: inside
      .filter(
        (event) =>
          event.kind !== 'arrive' &&
          event.kind !== 'upstream-request' &&
          event.kind !== 'upstream-headers',
      )
      .slice(0, 80)
      .map((event) => ({
        atMs: round(event.at - slow.startedAt),
        kind: event.kind,
        ...(event.ms !== undefined ? { ms: round(event.ms) } : {}),
        ...(event.runMs !== undefined ? { runMs: round(event.runMs) } : {}),
        ...(event.waitMs !== undefined ? { waitMs: round(event.waitMs) } : {}),
      })),
  };
}
