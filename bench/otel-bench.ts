/**
 * OpenTelemetry export off vs on vs on with a dead collector, side by side in one run: three
 * calltape proxies in passthrough mode in front of the same upstream. 128 concurrent streams
 * through each, alternating, and the per-event latency the agent sees; then non-streamed
 * throughput. Writes bench/results/otel-<timestamp>.json and the figures' section of
 * docs/opentelemetry.md (between its otel-bench markers).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild as startChildProcess, startedChildren } from './start-child.js';
import { percentile, runRequests, runStreams, type StreamSample } from './measure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const round = (value: number, digits = 3): number =>
  Math.round(value * 10 ** digits) / 10 ** digits;

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

const startChild = (args: string[]) =>
  startChildProcess(
    root,
    args,
    { CALLTAPE_CONFIG: join(root, 'proxy.config.json') },
    /listening on http:\/\/127\.0\.0\.1:(\d+)/,
  );
const upstream = await startChildProcess(
  root,
  [join(root, 'dist/bench/bench-upstream.js')],
  {},
  /^(\d+)\n/,
);
const proxyArgs = [
  join(root, 'dist/src/cli/main.js'),
  'proxy',
  '--port',
  '0',
  '--upstream',
  `http://127.0.0.1:${upstream.port}`,
  '--log-level',
  'silent',
  '--mode',
  'passthrough',
];
const sides = ['otel off', 'otel on', 'collector down'] as const;
type Side = (typeof sides)[number];
const proxies = {
  'otel off': await startChild(proxyArgs),
  'otel on': await startChild([...proxyArgs, '--otlp-endpoint', collectorUrl]),
  'collector down': await startChild([...proxyArgs, '--otlp-endpoint', deadUrl]),
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
const summarise = (list: readonly StreamSample[]) => {
  const events = list.flatMap((sample) => sample.eventLatenciesMs);
  return {
    streams: list.length,
    events: events.length,
    eventP50: round(percentile(events, 50)),
    eventP99: round(percentile(events, 99)),
    ttfbP50: round(
      percentile(
        list.map((sample) => sample.ttfbMs),
        50,
      ),
    ),
  };
};
const streaming = Object.fromEntries(
  sides.map((side) => [side, summarise(samples[side])]),
) as Record<Side, ReturnType<typeof summarise>>;

const throughput = {} as Record<Side, { requestsPerSecond: number; p50: number; p99: number }>;
for (const side of sides) {
  process.stderr.write(`non-streaming ×50 → ${side}\n`);
  const sample = await runRequests(origin(side), path, 50, quick ? 500 : 3000);
  throughput[side] = {
    requestsPerSecond: round(sample.requestsPerSecond, 1),
    p50: round(percentile(sample.latenciesMs, 50)),
    p99: round(percentile(sample.latenciesMs, 99)),
  };
}

await new Promise((resolve) => setTimeout(resolve, 2500));
const counter = async (side: Side, name: string): Promise<number> =>
  (await (await fetch(`${origin(side)}/metrics`)).text())
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
const export_ = {
  exported: await counter('otel on', 'calltape_otlp_spans_exported_total'),
  droppedOn: await counter('otel on', 'calltape_otlp_dropped_total'),
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
  '| non-streamed, 50 connections | requests/s | p50 | p99 |',
  '|---|---|---|---|',
  ...sides.map(
    (side) =>
      `| ${side} | ${throughput[side].requestsPerSecond} | ${throughput[side].p50} ms | ${throughput[side].p99} ms |`,
  ),
  '',
  `Export: ${export_.exported} spans accepted by the collector (${export_.collectorBytes} bytes), ${export_.droppedOn} lost; with the collector down, ${export_.droppedDown} counted as lost (so far: the exporter retries before giving a batch up).`,
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
