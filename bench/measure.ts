import { createParser } from 'eventsource-parser';
import { Pool } from 'undici';
import { plainBody, streamBody } from './chat-traffic.js';

/** Percentile of an unsorted sample (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ] as number;
}

/** `value` rounded to `digits` decimals, as the benches' results give their figures. */
export const round = (value: number, digits = 3): number =>
  Math.round(value * 10 ** digits) / 10 ** digits;

const now = (): number => performance.timeOrigin + performance.now();
const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-bench' };

export interface StreamSample {
  /** Wall-clock ms when the request was sent (comparable with process-probe's events). */
  readonly startedAt: number;
  readonly ttfbMs: number;
  readonly totalMs: number;
  /** Per event: receipt time minus the upstream's write time. */
  readonly eventLatenciesMs: readonly number[];
}

/** What streams of one side saw, pooled: per-event latency and time to first byte, p50 and p99 (ms). */
export function summariseStreams(list: readonly StreamSample[]): {
  streams: number;
  events: number;
  eventP50: number;
  eventP99: number;
  ttfbP50: number;
  ttfbP99: number;
} {
  const events = list.flatMap((sample) => sample.eventLatenciesMs);
  const ttfbs = list.map((sample) => sample.ttfbMs);
  return {
    streams: list.length,
    events: events.length,
    eventP50: round(percentile(events, 50)),
    eventP99: round(percentile(events, 99)),
    ttfbP50: round(percentile(ttfbs, 50)),
    ttfbP99: round(percentile(ttfbs, 99)),
  };
}

/** Runs `concurrency` workers, each doing `perWorker` streamed requests back to back. */
export async function runStreams(
  origin: string,
  path: string,
  concurrency: number,
  perWorker: number,
): Promise<StreamSample[]> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const samples: StreamSample[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < perWorker; i++) samples.push(await oneStream(pool, path));
    }),
  );
  await pool.close();
  return samples;
}

async function oneStream(pool: Pool, path: string): Promise<StreamSample> {
  const started = now();
  const response = await pool.request({ method: 'POST', path, headers, body: streamBody });
  let ttfb: number | undefined;
  const latencies: number[] = [];
  const parser = createParser({
    onEvent: (event) => {
      const at = now();
      const match = /"t":([\d.]+)/.exec(event.data);
      if (match?.[1]) latencies.push(at - Number(match[1]));
    },
  });
  // Ollama streams NDJSON: each line carries its write time like an SSE event's data.
  const ndjson = String(response.headers['content-type']).includes('ndjson');
  let pending = '';
  for await (const chunk of response.body) {
    ttfb ??= now() - started;
    const text = (chunk as Buffer).toString('utf8');
    if (!ndjson) {
      parser.feed(text);
      continue;
    }
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    const at = now();
    for (const line of lines) {
      const match = /"t":([\d.]+)/.exec(line);
      if (match?.[1]) latencies.push(at - Number(match[1]));
    }
  }
  return {
    startedAt: started,
    ttfbMs: ttfb ?? Number.NaN,
    totalMs: now() - started,
    eventLatenciesMs: latencies,
  };
}

export interface ThroughputSample {
  readonly requestsPerSecond: number;
  readonly latenciesMs: readonly number[];
}

/** Non-streamed requests back to back on `connections` connections for `durationMs`. */
export async function runRequests(
  origin: string,
  path: string,
  connections: number,
  durationMs: number,
): Promise<ThroughputSample> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const response = await pool.request({ method: 'POST', path, headers, body: plainBody });
        await response.body.arrayBuffer();
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  return { requestsPerSecond: (latencies.length / elapsed) * 1000, latenciesMs: latencies };
}

/**
 * Non-streamed requests sent at a fixed rate (open loop, over up to `connections` connections)
 * for `durationMs`: every path is asked for the same work per second, so CPU per request compares
 * like with like (a saturated closed loop batches more per event-loop turn on a faster path).
 */
export async function runPaced(
  origin: string,
  path: string,
  perSecond: number,
  durationMs: number,
  connections = 50,
): Promise<ThroughputSample> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  const sent: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.round((perSecond * durationMs) / 1000);
  const one = async (): Promise<void> => {
    const begin = performance.now();
    const response = await pool.request({ method: 'POST', path, headers, body: plainBody });
    await response.body.arrayBuffer();
    latencies.push(performance.now() - begin);
  };
  while (sent.length < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * perSecond) / 1000) + 1);
    while (sent.length < due) sent.push(one());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(sent);
  const elapsed = performance.now() - started;
  await pool.close();
  return { requestsPerSecond: (latencies.length / elapsed) * 1000, latenciesMs: latencies };
}
