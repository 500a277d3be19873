/**
 * Loaded into a measured process with `node --import ./dist/bench/process-probe.js …` (the proxy
 * or the bare pipe, never the load generator): measures from inside what contention on a shared
 * machine does not distort much — CPU time over all threads, bytes allocated on the main thread,
 * GC pauses, event-loop delay, time spent in `postMessage` — and, with BENCH_PROBE_TIMELINE=1, a
 * timeline of request arrivals, upstream connection set-up, upstream answers, GC pauses and
 * event-loop stalls, to explain one slow request. On SIGUSR2 it appends one JSON line to
 * BENCH_PROBE_OUT and starts a new window.
 */
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { GCProfiler } from 'node:v8';
import { isMainThread, Worker } from 'node:worker_threads';
import { threadCpuUs } from './process-cpu.js';

const out = process.env['BENCH_PROBE_OUT'];
const timeline = process.env['BENCH_PROBE_TIMELINE'] === '1';
const now = (): number => performance.timeOrigin + performance.now();

/** One thing that happened, at wall-clock ms (the load generator's clock). */
export interface ProbeEvent {
  readonly at: number;
  readonly kind:
    | 'arrive'
    | 'upstream-request'
    | 'connect-start'
    | 'connected'
    | 'upstream-headers'
    | 'gc'
    | 'stall'
    | 'post';
  /** Duration for gc, stall and post, in ms. */
  readonly ms?: number;
  /** A stall: ms of it the main thread ran (its own work), and ms it waited for a CPU (the machine's). */
  readonly runMs?: number;
  readonly waitMs?: number;
}

/** What one window (between two SIGUSR2) measured. */
export interface ProbeWindow {
  /** CPU time of the process over all threads since the probe started, µs. */
  readonly cpuUs: number;
  /** Of which the main thread (the one that forwards bytes), µs. */
  readonly mainCpuUs: number;
  /** Time the main thread was runnable but waited for a CPU since the probe started, µs: the contention it met. */
  readonly mainWaitUs: number;
  /** CPU of the threads that existed when the probe loaded, main excluded: V8's compiler and GC helpers, µs. */
  readonly v8ThreadsCpuUs: number;
  /** CPU of the threads started later: worker threads (store, shadow scoring) and libuv's pool, µs. */
  readonly laterThreadsCpuUs: number;
  readonly rssMb: number;
  /** Main-thread heap allocated in the window (used heap growth plus what GC freed), bytes. */
  readonly allocatedBytes: number;
  readonly gc: { readonly count: number; readonly totalMs: number; readonly maxMs: number };
  readonly eventLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly postMessage: { readonly count: number; readonly totalMs: number };
  readonly events: readonly ProbeEvent[];
}

/**
 * Only the main thread is probed. Worker threads inherit `--import`, so the store worker loads this
 * file too, but no signal reaches a worker's `process.on('SIGUSR2')`: there a GC profiler started
 * here was never stopped, and its native JSON record of every GC grew by ~5 KB a scavenge (50 MB in
 * a 30-minute soak) — RSS growth that was the probe's own, not the proxy's.
 */
if (isMainThread) startProbe();

function startProbe(): void {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let events: ProbeEvent[] = [];
  const note = (event: ProbeEvent): void => {
    if (timeline && events.length < 200_000) events.push(event);
  };

  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      note({ at: performance.timeOrigin + entry.startTime, kind: 'gc', ms: entry.duration });
    }
  }).observe({ entryTypes: ['gc'] });

  let profiler = new GCProfiler();
  profiler.start();
  let usedAtStart = process.memoryUsage().heapUsed;

  let post = { count: 0, totalMs: 0 };
  const postMessage = Object.getOwnPropertyDescriptor(Worker.prototype, 'postMessage')?.value as (
    this: Worker,
    ...args: Parameters<Worker['postMessage']>
  ) => void;
  Worker.prototype.postMessage = function (
    this: Worker,
    ...args: Parameters<Worker['postMessage']>
  ) {
    const started = performance.now();
    postMessage.apply(this, args);
    const ms = performance.now() - started;
    post.count++;
    post.totalMs += ms;
    note({ at: performance.timeOrigin + started, kind: 'post', ms });
  };

  /**
   * The main thread's time on a CPU and its time runnable but waiting for one (ns), from its
   * schedstat: how much of a stall was this process's own work and how much the machine's.
   */
  function mainThreadSchedule(): { readonly runNs: number; readonly waitNs: number } {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return { runNs: Number(run), waitNs: Number(wait) };
  }

  /** Threads present at start-up (main and V8's platform workers), told apart from those started later. */
  const startupThreads = new Set(readdirSync('/proc/self/task'));

  /** CPU (µs) of every thread but the main one, split into start-up threads and later ones. */
  function otherThreadsCpuUs(): { readonly v8: number; readonly later: number } {
    let v8 = 0;
    let later = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      if (tid === String(process.pid)) continue;
      const us = threadCpuUs('self', tid);
      if (us === undefined) continue; // the thread ended meanwhile
      if (startupThreads.has(tid)) v8 += us;
      else later += us;
    }
    return { v8: Math.round(v8), later: Math.round(later) };
  }

  if (timeline) {
    subscribe('http.server.request.start', () => note({ at: now(), kind: 'arrive' }));
    subscribe('undici:request:create', () => note({ at: now(), kind: 'upstream-request' }));
    subscribe('undici:client:beforeConnect', () => note({ at: now(), kind: 'connect-start' }));
    subscribe('undici:client:connected', () => note({ at: now(), kind: 'connected' }));
    subscribe('undici:request:headers', () => note({ at: now(), kind: 'upstream-headers' }));
    subscribe('http.client.request.start', () => note({ at: now(), kind: 'upstream-request' }));
    subscribe('http.client.response.finish', () => note({ at: now(), kind: 'upstream-headers' }));
    // A timer that should fire every 2 ms: a late firing is a stall of the event loop.
    let expected = performance.now() + 2;
    let schedule = mainThreadSchedule();
    setInterval(() => {
      const late = performance.now() - expected;
      const next = mainThreadSchedule();
      if (late > 3)
        note({
          at: now() - late,
          kind: 'stall',
          ms: late,
          runMs: (next.runNs - schedule.runNs) / 1e6,
          waitMs: (next.waitNs - schedule.waitNs) / 1e6,
        });
      schedule = next;
      expected = performance.now() + 2;
    }, 2).unref();
  }

  /** Main-thread bytes allocated since the window began, from GC statistics. */
  function allocated(): number {
    const stats = profiler.stop();
    let freed = 0;
    for (const entry of stats?.statistics ?? [])
      freed +=
        entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
    const used = process.memoryUsage().heapUsed;
    const bytes = used - usedAtStart + freed;
    usedAtStart = used;
    profiler = new GCProfiler();
    profiler.start();
    return bytes;
  }

  process.on('SIGUSR2', () => {
    const cpu = process.cpuUsage();
    const schedule = mainThreadSchedule();
    const others = otherThreadsCpuUs();
    const ns = (value: number): number => Math.round(value / 1e4) / 100;
    const window: ProbeWindow = {
      cpuUs: cpu.user + cpu.system,
      mainCpuUs: Math.round(schedule.runNs / 1000),
      mainWaitUs: Math.round(schedule.waitNs / 1000),
      v8ThreadsCpuUs: others.v8,
      laterThreadsCpuUs: others.later,
      rssMb: Math.round(process.memoryUsage().rss / 1e4) / 100,
      allocatedBytes: allocated(),
      gc: { ...gc, totalMs: Math.round(gc.totalMs * 100) / 100 },
      eventLoopDelayMs: {
        p50: ns(delay.percentile(50)),
        p99: ns(delay.percentile(99)),
        max: ns(delay.max),
      },
      postMessage: { ...post, totalMs: Math.round(post.totalMs * 100) / 100 },
      events,
    };
    if (out) appendFileSync(out, `${JSON.stringify(window)}\n`);
    delay.reset();
    gc = { count: 0, totalMs: 0, maxMs: 0 };
    post = { count: 0, totalMs: 0 };
    events = [];
  });
}
