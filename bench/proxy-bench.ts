/**
 * `npm run bench`: the scripted upstream reached directly, through a bare node:http pass-through
 * (the floor), through calltape with nothing recorded (`--mode passthrough`: where the rest of the gap is)
 * and through calltape recording, in rounds (the order rotating), so every figure of
 * issue 21's table is a side-by-side ratio on the same machine at the same moment, with its
 * min/median/max over rounds as the noise floor. The bare pipe and calltape run `process-probe`,
 * which measures from inside what contention distorts least: CPU µs per request over all
 * threads, bytes allocated, GC and event-loop delay. A last phase times one slow request.
 * Writes bench/results/proxy-<timestamp>.json and docs/benchmarks.md.
 * Flags: `--quick` (a smoke check, writes nothing), `--rounds N` (default 5).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, quick } from './bench-flags.js';
import { writeBenchPolicies } from './bench-policies.js';
import { countRows } from './count-rows.js';
import { percentile, runPaced, runRequests, runStreams, type StreamSample } from './measure.js';
import { peakRssWhile, readProbe } from './probe-reader.js';
import type { ProbeWindow } from './process-probe.js';
import { proxyBenchReport, type RoundFigures, type WireStreams } from './proxy-bench-report.js';
import { threadsCpuUs } from './process-cpu.js';
import { slowestRequest } from './slow-request.js';
import {
  proxyArgs as proxyCommand,
  proxyListening,
  startBenchUpstream,
  startChild,
} from './start-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rounds = numberFlag('--rounds', quick ? 1 : 5);
const folder = mkdtempSync(join(tmpdir(), 'calltape-bench-'));
const probe = ['--import', join(root, 'dist/bench/process-probe.js')];
const env = { CALLTAPE_CONFIG: join(root, 'proxy.config.json') };
const policies = writeBenchPolicies(folder);

const upstream = await startBenchUpstream(root);
const upstreamUrl = upstream.url;

/** A measured process: its origin, pid and the file its probe answers in. */
interface Probed {
  readonly origin: string;
  readonly pid: number;
  readonly out: string;
}
async function probed(
  name: string,
  args: string[],
  extra: Record<string, string>,
  pattern: RegExp,
): Promise<Probed> {
  const out = join(folder, `${name}.probe.jsonl`);
  const started = await startChild(
    root,
    [...probe, ...args],
    { ...extra, BENCH_PROBE_OUT: out },
    pattern,
  );
  return { origin: `http://127.0.0.1:${started.port}`, pid: started.child.pid ?? 0, out };
}
const proxyArgs = (mode: string, ...more: string[]): string[] =>
  proxyCommand(root, upstreamUrl, mode, ...more);
const cassette = join(folder, 'bench.sqlite');
const bare = await probed(
  'bare',
  [join(root, 'dist/bench/bare-proxy.js')],
  { BENCH_UPSTREAM: upstreamUrl },
  /^(\d+)\n/,
);
const calltape = await probed(
  'calltape',
  proxyArgs('record', '--cassette', cassette),
  env,
  proxyListening,
);
const passthrough = await probed('passthrough', proxyArgs('passthrough'), env, proxyListening);
const shadow = await probed(
  'shadow',
  proxyArgs('passthrough', '--policies', policies, '--shadow-db', join(folder, 'shadow.sqlite')),
  env,
  proxyListening,
);
const timeline = await probed(
  'timeline',
  proxyArgs('record', '--cassette', join(folder, 'timeline.sqlite')),
  { ...env, BENCH_PROBE_TIMELINE: '1' },
  proxyListening,
);
/** Resident set (MB) of a process now, from /proc. */
const rssMb = (pid: number): number =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 102.4,
  ) / 10;
// Before any traffic, once start-up work (the store worker opening the cassette) has settled.
await new Promise((resolve) => setTimeout(resolve, 2000));
const idleRssMb = {
  bare: rssMb(bare.pid),
  passthrough: rssMb(passthrough.pid),
  calltape: rssMb(calltape.pid),
};
const path = '/v1/chat/completions';
const targets = {
  direct: upstreamUrl,
  bare: bare.origin,
  passthrough: passthrough.origin,
  calltape: calltape.origin,
};
type Target = keyof typeof targets;
const names = Object.keys(targets) as Target[];
let sentToCalltape = 0;

process.stderr.write('warming up…\n');
// By count, not time: under contention a timed warm-up leaves calltape's larger code still being
// compiled (TurboFan on V8's background threads) when the measured phases begin.
const warmRequests = quick ? 500 : 6000;
for (const origin of [...Object.values(targets), shadow.origin, timeline.origin]) {
  let warmed = 0;
  while (warmed < warmRequests)
    warmed += (await runRequests(origin, path, 8, 500)).latenciesMs.length;
  const streams = await runStreams(origin, path, 16, quick ? 2 : 8);
  if (origin === calltape.origin) sentToCalltape += warmed + streams.length;
}

/** Runs `work` against a probed process and returns what its probe saw during it. */
async function during<T>(
  target: Probed | undefined,
  work: () => Promise<T>,
): Promise<[T, ProbeWindow | undefined, ProbeWindow | undefined]> {
  const before = target && (await readProbe(target.pid, target.out));
  const result = await work();
  // Let the store worker finish this phase's batches before the CPU is read.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = target && (await readProbe(target.pid, target.out));
  return [result, before, after];
}
const probedOf = (name: Target): Probed | undefined =>
  name === 'bare'
    ? bare
    : name === 'calltape'
      ? calltape
      : name === 'passthrough'
        ? passthrough
        : undefined;
const cpuPer = (
  before: ProbeWindow | undefined,
  after: ProbeWindow | undefined,
  count: number,
  field: 'cpuUs' | 'mainCpuUs' | 'mainWaitUs' | 'v8ThreadsCpuUs' | 'laterThreadsCpuUs' = 'cpuUs',
) => (before && after ? Math.round((after[field] - before[field]) / count) : undefined);
const eventsOf = (samples: readonly StreamSample[]) =>
  samples.flatMap((sample) => sample.eventLatenciesMs);

async function shadowCounters(): Promise<{ queued: number; dropped: number; depth: number }> {
  const metrics = await (await fetch(`${shadow.origin}/metrics`)).text();
  const counter = (name: string): number =>
    metrics
      .split('\n')
      .filter((line) => line.startsWith(name))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  return {
    queued: counter('calltape_shadow_queued_total'),
    dropped: counter('calltape_shadow_dropped_total'),
    depth: counter('calltape_shadow_queue_depth'),
  };
}

/** Waits until the scoring worker has taken everything queued (and a moment for its last batch), at most 60 s. */
async function shadowDrained(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await shadowCounters()).depth > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** The fixed rate CPU per request is compared at: well under what any path sustains here. */
const pacedRate = 500;
const figures: RoundFigures[] = [];
for (let index = 0; index < rounds; index++) {
  const order = names.map((_, at) => names[(at + index) % names.length] as Target);
  const figure = { one: {}, fifty: {}, streams: {} } as RoundFigures;
  for (const name of order) {
    process.stderr.write(`round ${index + 1}/${rounds}: ${name}\n`);
    const target = probedOf(name);
    const [one, oneBefore, oneAfter] = await during(target, () =>
      runRequests(targets[name], path, 1, quick ? 500 : 1500),
    );
    const [paced, pacedBefore, pacedAfter] = await during(target, () =>
      runPaced(targets[name], path, pacedRate, quick ? 500 : 2000),
    );
    // What the load generator (this process) and the upstream spend per request beside the proxy.
    const othersBefore = process.cpuUsage().user + process.cpuUsage().system;
    const upstreamBefore = threadsCpuUs(upstream.child.pid ?? 0);
    const [fifty, before, after] = await during(target, () =>
      runRequests(targets[name], path, 50, quick ? 500 : 2500),
    );
    const othersUs =
      process.cpuUsage().user +
      process.cpuUsage().system -
      othersBefore +
      threadsCpuUs(upstream.child.pid ?? 0) -
      upstreamBefore;
    const [[streams, peakRss], streamsBefore, streamsAfter] = await during(target, () =>
      peakRssWhile(
        target?.pid ?? upstream.child.pid ?? 0,
        runStreams(targets[name], path, 128, quick ? 1 : 3),
      ),
    );
    if (name === 'calltape') sentToCalltape += paced.latenciesMs.length;
    if (name === 'calltape')
      sentToCalltape += one.latenciesMs.length + fifty.latenciesMs.length + streams.length;
    figure.one[name] = {
      p50: percentile(one.latenciesMs, 50),
      cpuUs: cpuPer(oneBefore, oneAfter, one.latenciesMs.length),
    };
    figure.fifty[name] = {
      requestsPerSecond: fifty.requestsPerSecond,
      othersCpuUs: Math.round(othersUs / fifty.latenciesMs.length),
      cpuUs: cpuPer(before, after, fifty.latenciesMs.length),
      pacedCpuUs: cpuPer(pacedBefore, pacedAfter, paced.latenciesMs.length),
      pacedMainCpuUs: cpuPer(pacedBefore, pacedAfter, paced.latenciesMs.length, 'mainCpuUs'),
      pacedV8CpuUs: cpuPer(pacedBefore, pacedAfter, paced.latenciesMs.length, 'v8ThreadsCpuUs'),
      pacedWorkerCpuUs: cpuPer(
        pacedBefore,
        pacedAfter,
        paced.latenciesMs.length,
        'laterThreadsCpuUs',
      ),
      mainCpuUs: cpuPer(before, after, fifty.latenciesMs.length, 'mainCpuUs'),
      mainWaitUs: cpuPer(before, after, fifty.latenciesMs.length, 'mainWaitUs'),
      allocatedBytes: after && Math.round(after.allocatedBytes / fifty.latenciesMs.length),
      gcMs: after && after.gc.totalMs,
      eventLoopP99: after?.eventLoopDelayMs.p99,
    };
    figure.streams[name] = {
      ttfbP99: percentile(
        streams.map((sample) => sample.ttfbMs),
        99,
      ),
      eventP99: percentile(eventsOf(streams), 99),
      rssMb: target ? peakRss : undefined,
      cpuUs: cpuPer(streamsBefore, streamsAfter, streams.length),
      eventLoopP99: streamsAfter?.eventLoopDelayMs.p99,
      eventLoopMax: streamsAfter?.eventLoopDelayMs.max,
    };
  }
  // One stream per further wire, in its own format: through the bare pipe and calltape recording.
  const wires: WireStreams[] = [];
  for (const wire of [
    { name: 'Ollama NDJSON', path: '/api/chat' },
    { name: 'Gemini SSE', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse' },
  ]) {
    process.stderr.write(`round ${index + 1}/${rounds}: ${wire.name} streams\n`);
    const through = async (name: 'bare' | 'calltape') => {
      const samples = await runStreams(targets[name], wire.path, 128, quick ? 1 : 3);
      if (name === 'calltape') sentToCalltape += samples.length;
      return {
        eventP99: percentile(eventsOf(samples), 99),
        ttfbP99: percentile(
          samples.map((sample) => sample.ttfbMs),
          99,
        ),
      };
    };
    wires.push({
      name: wire.name,
      bare: await through('bare'),
      calltape: await through('calltape'),
    });
  }
  figure.wires = wires;
  process.stderr.write(`round ${index + 1}/${rounds}: shadow scoring\n`);
  // Long enough that the 10,000-round queue cannot hide a scorer slower than the traffic: a
  // 2.5 s phase once read "0 dropped" while the scorer kept up with under half of it.
  const shadowMs = quick ? 500 : 10_000;
  const counted = await shadowCounters();
  const [scored, shadowBefore, shadowAfter] = await during(shadow, () =>
    runRequests(shadow.origin, path, 50, shadowMs),
  );
  await shadowDrained();
  const counters = await shadowCounters();
  // Then at 90% of what it just sustained: the rate a proxy scoring live traffic runs at below saturation.
  const pacedShadowRate = Math.round(scored.requestsPerSecond * 0.9);
  const [paced] = await during(shadow, () =>
    runPaced(shadow.origin, path, pacedShadowRate, shadowMs),
  );
  await shadowDrained();
  const pacedCounters = await shadowCounters();
  figure.shadow = {
    requestsPerSecond: scored.requestsPerSecond,
    queued: counters.queued - counted.queued,
    dropped: counters.dropped - counted.dropped,
    cpuUs: cpuPer(shadowBefore, shadowAfter, scored.latenciesMs.length),
    paced: {
      requestsPerSecond: paced.requestsPerSecond,
      queued: pacedCounters.queued - counters.queued,
      dropped: pacedCounters.dropped - counters.dropped,
    },
  };
  figures.push(figure);
}

process.stderr.write('timeline of the slowest of 128 streams\n');
const [slowSamples, , slowWindow] = await during(timeline, () =>
  runStreams(timeline.origin, path, 128, 1),
);
const anatomy = slowestRequest(slowSamples, slowWindow?.events ?? []);

for (const pid of [calltape.pid, passthrough.pid, shadow.pid, timeline.pid])
  process.kill(pid, 'SIGTERM');
await new Promise((resolve) => setTimeout(resolve, 1500));
const stored = countRows(cassette);

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  settings: {
    eventsPerStream: Number(process.env['BENCH_EVENTS'] ?? 20),
    eventGapMs: Number(process.env['BENCH_GAP_MS'] ?? 5),
    rounds,
    pacedRate,
    quick,
  },
  figures,
  idleRssMb,
  anatomy,
  calltape: { sent: sentToCalltape, stored },
};
const report = proxyBenchReport(result);
if (!quick) {
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  writeFileSync(
    join(root, `bench/results/proxy-${stamp}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  writeFileSync(join(root, 'docs/benchmarks.md'), report);
}
process.stdout.write(report);
process.exit(stored === sentToCalltape ? 0 : 1);
