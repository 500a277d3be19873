/**
 * `npm run bench`: the scripted upstream reached three ways in one run — directly, through a
 * bare node:http pass-through (the floor) and through calltape with capture and store on —
 * so every number is a side-by-side ratio on the same machine at the same moment.
 * Writes bench/results/<timestamp>.json and docs/benchmarks.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startChild as startChildProcess } from './start-child.js';
import { percentile, runRequests, runStreams, type StreamSample } from './measure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');

const startChild = (args: string[], env: Record<string, string>, portPattern: RegExp) =>
  startChildProcess(root, args, env, portPattern);

function memoryMb(pid: number | undefined): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (key: string): number =>
    Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: round(read('VmRSS')), peakRssMb: round(read('VmHWM')) };
}

const round = (value: number, digits = 3): number =>
  Math.round(value * 10 ** digits) / 10 ** digits;

/** CPU time (user + system, ms) a process has used so far, all threads included. */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 Hz on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const upstream = await startChild([join(root, 'dist/bench/bench-upstream.js')], {}, /^(\d+)\n/);
const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
const bare = await startChild(
  [join(root, 'dist/bench/bare-proxy.js')],
  { BENCH_UPSTREAM: upstreamUrl },
  /^(\d+)\n/,
);
const cassette = join(mkdtempSync(join(tmpdir(), 'calltape-bench-')), 'bench.sqlite');
const calltape = await startChild(
  [
    join(root, 'dist/src/cli/main.js'),
    'proxy',
    '--port',
    '0',
    '--upstream',
    upstreamUrl,
    '--anthropic-upstream',
    upstreamUrl,
    '--cassette',
    cassette,
    '--log-level',
    'error',
    '--mode',
    'record',
  ],
  { CALLTAPE_CONFIG: join(root, 'proxy.config.json') },
  /listening on http:\/\/127\.0\.0\.1:(\d+)/,
);

const targets = [
  { name: 'direct', origin: upstreamUrl },
  { name: 'bare', origin: `http://127.0.0.1:${bare.port}` },
  { name: 'calltape', origin: `http://127.0.0.1:${calltape.port}` },
] as const;
type TargetName = (typeof targets)[number]['name'];
const path = '/v1/chat/completions';

process.stderr.write('warming up…\n');
for (const target of targets) {
  await runRequests(target.origin, path, 8, quick ? 300 : 1500);
  await runStreams(target.origin, path, 8, 2);
}

interface StreamStats {
  ttfbP50: number;
  ttfbP99: number;
  eventP50: number;
  eventP99: number;
  totalP50: number;
  totalP99: number;
  streams: number;
  events: number;
}
const summarise = (samples: readonly StreamSample[]): StreamStats => {
  const events = samples.flatMap((sample) => sample.eventLatenciesMs);
  const ttfb = samples.map((sample) => sample.ttfbMs);
  const total = samples.map((sample) => sample.totalMs);
  return {
    ttfbP50: round(percentile(ttfb, 50)),
    ttfbP99: round(percentile(ttfb, 99)),
    eventP50: round(percentile(events, 50)),
    eventP99: round(percentile(events, 99)),
    totalP50: round(percentile(total, 50)),
    totalP99: round(percentile(total, 99)),
    streams: samples.length,
    events: events.length,
  };
};

const streaming: Record<string, Record<TargetName, StreamStats>> = {};
for (const concurrency of [1, 16, 128]) {
  const perWorker = quick ? 2 : concurrency === 1 ? 60 : concurrency === 16 ? 10 : 4;
  const row = {} as Record<TargetName, StreamStats>;
  for (const target of targets) {
    process.stderr.write(`streaming ×${concurrency} → ${target.name}\n`);
    row[target.name] = summarise(await runStreams(target.origin, path, concurrency, perWorker));
  }
  streaming[String(concurrency)] = row;
}

// Each wire's stream at 16 concurrent streams: the adapters parse different events, the forwarding path is the same.
const wires: Record<string, Record<TargetName, StreamStats>> = {};
for (const wirePath of ['/v1/chat/completions', '/v1/responses', '/v1/messages']) {
  const row = {} as Record<TargetName, StreamStats>;
  for (const target of targets) {
    process.stderr.write(`streaming ${wirePath} ×16 → ${target.name}\n`);
    row[target.name] = summarise(await runStreams(target.origin, wirePath, 16, quick ? 2 : 10));
  }
  wires[wirePath] = row;
}

interface RequestStats {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  proxyCpuUsPerRequest: number | undefined;
}
const pidOf: Partial<Record<TargetName, number | undefined>> = {
  bare: bare.child.pid,
  calltape: calltape.child.pid,
};
const nonStreaming: Record<string, Record<TargetName, RequestStats>> = {};
for (const connections of [1, 50]) {
  const row = {} as Record<TargetName, RequestStats>;
  for (const target of targets) {
    process.stderr.write(`non-streaming ×${connections} → ${target.name}\n`);
    const pid = pidOf[target.name];
    const cpuBefore = pid ? cpuMs(pid) : 0;
    const sample = await runRequests(target.origin, path, connections, quick ? 500 : 4000);
    // Let the store worker finish the batches of this phase before reading its CPU time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const proxyCpuUsPerRequest = pid
      ? round(((cpuMs(pid) - cpuBefore) * 1000) / sample.latenciesMs.length, 1)
      : undefined;
    row[target.name] = {
      requestsPerSecond: round(sample.requestsPerSecond, 1),
      p50: round(percentile(sample.latenciesMs, 50)),
      p99: round(percentile(sample.latenciesMs, 99)),
      requests: sample.latenciesMs.length,
      proxyCpuUsPerRequest,
    };
  }
  nonStreaming[String(connections)] = row;
}

const memory = { bare: memoryMb(bare.child.pid), calltape: memoryMb(calltape.child.pid) };
calltape.child.kill('SIGTERM');
await new Promise((resolve) => calltape.child.once('exit', resolve));
const db = new Database(cassette, { readonly: true });
const stored = (db.prepare('SELECT count(*) AS n FROM interactions').get() as { n: number }).n;
db.close();

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  settings: {
    eventsPerStream: Number(process.env['BENCH_EVENTS'] ?? 20),
    eventGapMs: Number(process.env['BENCH_GAP_MS'] ?? 5),
    quick,
  },
  streaming,
  wires,
  nonStreaming,
  memory,
  calltapeStoredInteractions: stored,
};

const added = (
  row: Record<TargetName, StreamStats> | Record<TargetName, RequestStats>,
  name: 'bare' | 'calltape',
  key: string,
): string => {
  const value = (row[name] as unknown as Record<string, number>)[key] as number;
  const base = (row.direct as unknown as Record<string, number>)[key] as number;
  return `${round(value - base, 2).toFixed(2)}`;
};
const lines = [
  '# Benchmarks',
  '',
  `Generated by \`npm run bench\` on ${result.date} (${result.machine.cpus} cores, ${result.machine.model ?? 'unknown CPU'}, Node ${result.machine.node}).`,
  'All three paths are measured in the same run against the same scripted upstream (its own process):',
  '**direct** (no proxy), **bare** (a node:http pass-through piping bytes: the floor a Node proxy can reach) and',
  "**calltape** (capture and SQLite store on). The load generator, upstream and proxy share the machine's cores,",
  'so absolute numbers are pessimistic; the differences between paths are what matter.',
  '',
  `## Streamed responses (${result.settings.eventsPerStream} events, ${result.settings.eventGapMs} ms apart)`,
  '',
  'Added milliseconds over direct (p50 / p99).',
  '',
  '| concurrent streams | path | added TTFB p50 / p99 | added per-event p50 / p99 | added total p50 / p99 |',
  '| --- | --- | --- | --- | --- |',
  ...Object.entries(streaming).flatMap(([concurrency, row]) =>
    (['bare', 'calltape'] as const).map(
      (name) =>
        `| ${concurrency} | ${name} | ${added(row, name, 'ttfbP50')} / ${added(row, name, 'ttfbP99')} | ${added(row, name, 'eventP50')} / ${added(row, name, 'eventP99')} | ${added(row, name, 'totalP50')} / ${added(row, name, 'totalP99')} |`,
    ),
  ),
  '',
  'Per-event latency p99 at 128 streams, calltape ÷ bare: ' +
    `**${round((streaming['128']?.calltape.eventP99 ?? 0) / (streaming['128']?.bare.eventP99 ?? 1), 2)}×**` +
    ` (absolute: direct ${streaming['128']?.direct.eventP99} ms, bare ${streaming['128']?.bare.eventP99} ms, calltape ${streaming['128']?.calltape.eventP99} ms).`,
  '',
  '## Each wire format (16 concurrent streams)',
  '',
  'Added per-event milliseconds over direct (p50 / p99): Chat Completions chunks, Responses events, Anthropic Messages events.',
  '',
  '| wire | bare | calltape |',
  '| --- | --- | --- |',
  ...Object.entries(wires).map(
    ([wirePath, row]) =>
      `| \`${wirePath}\` | ${added(row, 'bare', 'eventP50')} / ${added(row, 'bare', 'eventP99')} | ${added(row, 'calltape', 'eventP50')} / ${added(row, 'calltape', 'eventP99')} |`,
  ),
  '',
  '## Non-streamed requests',
  '',
  '| connections | path | requests/s | % of bare | added latency p50 / p99 (ms) | proxy CPU per request (µs, all threads) |',
  '| --- | --- | --- | --- | --- | --- |',
  ...Object.entries(nonStreaming).flatMap(([connections, row]) => [
    `| ${connections} | direct | ${row.direct.requestsPerSecond} | | | |`,
    ...(['bare', 'calltape'] as const).map(
      (name) =>
        `| ${connections} | ${name} | ${row[name].requestsPerSecond} | ${round((row[name].requestsPerSecond / row.bare.requestsPerSecond) * 100, 1)}% | ${added(row, name, 'p50')} / ${added(row, name, 'p99')} | ${row[name].proxyCpuUsPerRequest ?? ''} |`,
    ),
  ]),
  '',
  'The load generator, the upstream and the proxy share two cores here, so a proxy that spends more CPU per',
  'request (calltape parses and stores every interaction on its store worker thread) loses throughput to the',
  'others at saturation; the CPU column is what a deployment with dedicated cores would divide its capacity by.',
  '',
  '## Memory',
  '',
  `calltape RSS ${memory.calltape.rssMb} MB (peak ${memory.calltape.peakRssMb} MB); bare pass-through RSS ${memory.bare.rssMb} MB (peak ${memory.bare.peakRssMb} MB).`,
  `calltape stored ${stored} interactions during the run.`,
  '',
];
mkdirSync(join(root, 'bench/results'), { recursive: true });
const stamp = result.date.replace(/[:.]/g, '-');
// Only full runs are results; --quick is a smoke check.
if (!quick) {
  writeFileSync(
    join(root, `bench/results/proxy-${stamp}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  writeFileSync(join(root, 'docs/benchmarks.md'), lines.join('\n'));
}
process.stdout.write(lines.join('\n'));
process.exit(0);
