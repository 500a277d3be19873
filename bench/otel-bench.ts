/**
 * OpenTelemetry export off vs on vs on with a dead collector, side by side in one run: three
 * calltape proxies in passthrough mode in front of the same upstream. 128 concurrent streams
 * through each, alternating, and the per-event latency the agent sees; then non-streamed
 * throughput in rotated rounds, with each proxy's CPU per request read by `process-probe` from
 * inside it (main thread, and the worker threads apart). Writes bench/results/otel-<timestamp>.json
 * and the figures' section of docs/opentelemetry.md (between its otel-bench markers).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quick } from './bench-flags.js';
import { readProbe } from './probe-reader.js';
import type { ProbeWindow } from './process-probe.js';
import {
  proxyListening,
  startBenchUpstream,
  startChild as startChildProcess,
  startedChildren,
} from './start-child.js';
import {
  percentile,
  round,
  runRequests,
  runStreams,
  summariseStreams,
  type StreamSample,
} from './measure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The collector: accepts every export, counting the bytes.
let received = 0;
const collector = createServer((request, response) => {
  request.on('data', (chunk: Buffer) => (received += chunk.length));
  request.on('end', () =>
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(),
  );
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
// A dead collector: a port that was free a moment ago.
const dead = createServer();
await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
await new Promise<void>((resolve) => dead.close(() => resolve()));

const folder = mkdtempSync(join(tmpdir(), 'calltape-otel-bench-'));
/** A proxy with `process-probe` loaded: its port, pid and the file its probe answers in. */
const startChild = async (name: string, args: string[]) => {
  const out = join(folder, `${name}.probe.jsonl`);
  const started = await startChildProcess(
    root,
    ['--import', join(root, 'dist/bench/process-probe.js'), ...args],
    { CALLTAPE_CONFIG: join(root, 'proxy.config.json'), BENCH_PROBE_OUT: out },
    proxyListening,
  );
  return { port: started.port, pid: started.child.pid ?? 0, out };
};
const upstream = await startBenchUpstream(root);
const proxyArgs = [
  join(root, 'dist/src/cli/main.js'),
  'proxy',
  '--port',
  '0',
  '--upstream',
  upstream.url,
  '--log-level',
  'silent',
  '--mode',
  'passthrough',
];
const sides = ['otel off', 'otel on', 'collector down'] as const;
type Side = (typeof sides)[number];
const proxies = {
  'otel off': await startChild('off', proxyArgs),
  'otel on': await startChild('on', [...proxyArgs, '--otlp-endpoint', collectorUrl]),
  'collector down': await startChild('down', [...proxyArgs, '--otlp-endpoint', deadUrl]),
};
const origin = (side: Side): string => `http://127.0.0.1:${proxies[side].port}`;
const path = '/v1/chat/completions';

process.stderr.write('warming up…\n');
for (const side of sides) {
  await runRequests(origin(side), path, 8, quick ? 300 : 1000);
  await runStreams(origin(side), path, 16, 2);
}

// Alternating rounds, rotated, so drift on the machine lands on every side alike.
const samples: Record<Side, StreamSample[]> = {
  'otel off': [],
  'otel on': [],
  'collector down': [],
};
// Each round's per-event p50 per side, so a ratio can be given per round (min / median / max), not only pooled.
const roundP50: Record<Side, number[]> = { 'otel off': [], 'otel on': [], 'collector down': [] };
const loadBefore = loadavg()[0] ?? 0;
const rounds = quick ? 1 : 6;
for (let index = 0; index < rounds; index++) {
  for (let offset = 0; offset < sides.length; offset++) {
    const side = sides[(index + offset) % sides.length] as Side;
    process.stderr.write(`round ${index + 1}: 128 streams → ${side}\n`);
    const round_ = await runStreams(origin(side), path, 128, quick ? 2 : 4);
    samples[side].push(...round_);
    roundP50[side].push(
      percentile(
        round_.flatMap((sample) => sample.eventLatenciesMs),
        50,
      ),
    );
  }
}
const streaming = Object.fromEntries(
  sides.map((side) => [side, summariseStreams(samples[side])]),
) as Record<Side, ReturnType<typeof summariseStreams>>;

/** One non-streamed round against one side: requests/s, latency, and CPU µs per request from the probe. */
interface ThroughputRound {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly mainCpuUs: number;
  readonly workerCpuUs: number;
  readonly cpuUs: number;
}
const throughputRounds: Record<Side, ThroughputRound[]> = {
  'otel off': [],
  'otel on': [],
  'collector down': [],
};
const perRequest = (before: ProbeWindow, after: ProbeWindow, count: number) => ({
  mainCpuUs: Math.round((after.mainCpuUs - before.mainCpuUs) / count),
  workerCpuUs: Math.round((after.laterThreadsCpuUs - before.laterThreadsCpuUs) / count),
  cpuUs: Math.round((after.cpuUs - before.cpuUs) / count),
});
const throughputRoundCount = quick ? 1 : 5;
for (let index = 0; index < throughputRoundCount; index++) {
  for (let offset = 0; offset < sides.length; offset++) {
    const side = sides[(index + offset) % sides.length] as Side;
    process.stderr.write(`round ${index + 1}: non-streaming ×50 → ${side}\n`);
    const { pid, out } = proxies[side];
    const before = await readProbe(pid, out);
    const sample = await runRequests(origin(side), path, 50, quick ? 500 : 2000);
    // Let the export's worker finish the round's batches before the CPU is read.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await readProbe(pid, out);
    throughputRounds[side].push({
      requestsPerSecond: sample.requestsPerSecond,
      p50: percentile(sample.latenciesMs, 50),
      p99: percentile(sample.latenciesMs, 99),
      ...perRequest(before, after, sample.latenciesMs.length),
    });
  }
}
const medianOf = (side: Side, field: keyof ThroughputRound): number =>
  percentile(
    throughputRounds[side].map((entry) => entry[field]),
    50,
  );
const throughput = Object.fromEntries(
  sides.map((side) => [
    side,
    {
      requestsPerSecond: round(medianOf(side, 'requestsPerSecond'), 1),
      p50: round(medianOf(side, 'p50')),
      p99: round(medianOf(side, 'p99')),
      mainCpuUs: medianOf(side, 'mainCpuUs'),
      workerCpuUs: medianOf(side, 'workerCpuUs'),
      cpuUs: medianOf(side, 'cpuUs'),
      requestsPerSecondRange: {
        min: round(Math.min(...throughputRounds[side].map((entry) => entry.requestsPerSecond)), 1),
        max: round(Math.max(...throughputRounds[side].map((entry) => entry.requestsPerSecond)), 1),
      },
    },
  ]),
) as Record<
  Side,
  {
    requestsPerSecond: number;
    p50: number;
    p99: number;
    mainCpuUs: number;
    workerCpuUs: number;
    cpuUs: number;
    requestsPerSecondRange: { min: number; max: number };
  }
>;
/** Per-round ratios of a side's requests/s and main-thread CPU per request to the off side's in the same round. */
const throughputSpread = (side: Side, field: 'requestsPerSecond' | 'mainCpuUs') => {
  const ratios = throughputRounds[side]
    .map(
      (entry, index) => entry[field] / (throughputRounds['otel off'][index]?.[field] ?? Number.NaN),
    )
    .sort((a, b) => a - b);
  return {
    min: round(ratios[0] ?? Number.NaN, 2),
    median: round(percentile(ratios, 50), 2),
    max: round(ratios.at(-1) ?? Number.NaN, 2),
  };
};

await new Promise((resolve) => setTimeout(resolve, 2500));
const counter = async (side: Side, name: string): Promise<number> =>
  (await (await fetch(`${origin(side)}/metrics`)).text())
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
const export_ = {
  exported: await counter('otel on', 'calltape_otlp_spans_exported_total'),
  droppedOn: await counter('otel on', 'calltape_otlp_dropped_total'),
  droppedOnRounds: await counter('otel on', 'calltape_otlp_dropped_total{what="round"}'),
  droppedDown: await counter('collector down', 'calltape_otlp_dropped_total'),
  collectorBytes: received,
};

const off = streaming['otel off'];
const ratio = (side: Side) => ({
  eventP50: round(streaming[side].eventP50 / off.eventP50, 2),
  eventP99: round(streaming[side].eventP99 / off.eventP99, 2),
  requestsPerSecond: round(
    throughput[side].requestsPerSecond / throughput['otel off'].requestsPerSecond,
    2,
  ),
});
/** Per-round ratios of a side's per-event p50 to the off side's in the same round. */
const spread = (side: Side) => {
  const ratios = roundP50[side]
    .map((value, index) => value / (roundP50['otel off'][index] ?? Number.NaN))
    .sort((a, b) => a - b);
  return {
    min: round(ratios[0] ?? Number.NaN, 2),
    median: round(percentile(ratios, 50), 2),
    max: round(ratios.at(-1) ?? Number.NaN, 2),
  };
};
const loadAfter = loadavg()[0] ?? 0;
const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    node: process.version,
    loadAverage1m: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
  },
  quick,
  streaming,
  throughput,
  ratios: { on: ratio('otel on'), down: ratio('collector down') },
  perRound: { on: spread('otel on'), down: spread('collector down') },
  throughputPerRound: {
    on: {
      requestsPerSecond: throughputSpread('otel on', 'requestsPerSecond'),
      mainCpuUs: throughputSpread('otel on', 'mainCpuUs'),
    },
    down: {
      requestsPerSecond: throughputSpread('collector down', 'requestsPerSecond'),
      mainCpuUs: throughputSpread('collector down', 'mainCpuUs'),
    },
  },
  throughputRounds,
  export: export_,
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, `bench/results/otel-${result.date.replace(/[:.]/g, '-')}.json`),
  `${JSON.stringify(result, null, 2)}\n`,
);
const lines = [
  '### Measured: export off vs on vs a dead collector',
  '',
  `Generated by \`npm run bench\` (bench/otel-bench.ts) on ${result.date}${quick ? ' (--quick)' : ''}: ${result.machine.cpus} × ${result.machine.model ?? 'cpu'}, Node ${result.machine.node}.`,
  'Three calltape proxies in passthrough mode in front of the same upstream (20 events 5 ms apart per stream): no export, export to a collector that accepts, export to a port nothing listens on; alternating rounds of 128 concurrent streams.',
  '',
  '| 128 streams | per-event p50 | per-event p99 | TTFB p50 | events |',
  '|---|---|---|---|---|',
  ...sides.map(
    (side) =>
      `| ${side} | ${streaming[side].eventP50} ms | ${streaming[side].eventP99} ms | ${streaming[side].ttfbP50} ms | ${streaming[side].events} |`,
  ),
  '',
  `÷ off, per-event p50 / p99: on **${result.ratios.on.eventP50}× / ${result.ratios.on.eventP99}×**, collector down **${result.ratios.down.eventP50}× / ${result.ratios.down.eventP99}×**.`,
  `Per round (${rounds} rounds), per-event p50 ÷ the same round's off side, min / median / max: on ${result.perRound.on.min}× / ${result.perRound.on.median}× / ${result.perRound.on.max}×, collector down ${result.perRound.down.min}× / ${result.perRound.down.median}× / ${result.perRound.down.max}×.`,
  '',
  `Taken under load: 1-minute load average ${result.machine.loadAverage1m.before} before the rounds and ${result.machine.loadAverage1m.after} after, on ${result.machine.cpus} cores shared with other builds and tests; absolute milliseconds move with that load, so read the ratios (the sides alternate round by round).`,
  '',
  `| non-streamed, 50 connections (median of ${throughputRoundCount} rounds) | requests/s (min–max) | p50 | p99 | main-thread CPU / request | worker threads CPU / request | process CPU / request |`,
  '|---|---|---|---|---|---|---|',
  ...sides.map(
    (side) =>
      `| ${side} | ${throughput[side].requestsPerSecond} (${throughput[side].requestsPerSecondRange.min}–${throughput[side].requestsPerSecondRange.max}) | ${throughput[side].p50} ms | ${throughput[side].p99} ms | ${throughput[side].mainCpuUs} µs | ${throughput[side].workerCpuUs} µs | ${throughput[side].cpuUs} µs |`,
  ),
  '',
  `Per round, ÷ the same round's off side, min / median / max: requests/s on ${result.throughputPerRound.on.requestsPerSecond.min}× / ${result.throughputPerRound.on.requestsPerSecond.median}× / ${result.throughputPerRound.on.requestsPerSecond.max}×, collector down ${result.throughputPerRound.down.requestsPerSecond.min}× / ${result.throughputPerRound.down.requestsPerSecond.median}× / ${result.throughputPerRound.down.requestsPerSecond.max}×; main-thread CPU per request on ${result.throughputPerRound.on.mainCpuUs.min}× / ${result.throughputPerRound.on.mainCpuUs.median}× / ${result.throughputPerRound.on.mainCpuUs.max}×, collector down ${result.throughputPerRound.down.mainCpuUs.min}× / ${result.throughputPerRound.down.mainCpuUs.median}× / ${result.throughputPerRound.down.mainCpuUs.max}×. CPU is read by \`process-probe\` inside each proxy (main thread from its schedstat; worker threads are those started after it, i.e. the store, shadow and export workers), which contention on a shared machine distorts far less than requests/s.`,
  '',
  `Export: ${export_.exported} spans accepted by the collector (${export_.collectorBytes} bytes), ${export_.droppedOn} lost (${export_.droppedOnRounds} of them rounds never traced: the export worker's queue was full); with the collector down, ${export_.droppedDown} counted as lost (so far: the exporter retries before giving a batch up).`,
  '',
];
const manual = join(root, 'docs/opentelemetry.md');
const [head, rest] = readFileSync(manual, 'utf8').split('<!-- otel-bench:start -->');
const tail = rest?.split('<!-- otel-bench:end -->')[1];
if (head === undefined || tail === undefined)
  throw new Error(`${manual}: the otel-bench markers are missing`);
writeFileSync(
  manual,
  `${head}<!-- otel-bench:start -->\n\n${lines.join('\n')}\n<!-- otel-bench:end -->${tail}`,
);
process.stdout.write(`${lines.join('\n')}\n`);
for (const child of startedChildren()) child.kill('SIGTERM');
collector.close();
process.exit(0);
