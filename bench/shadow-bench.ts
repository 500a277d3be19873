/**
 * Shadow scoring on vs off, side by side in one run: two calltape proxies in passthrough mode in
 * front of the same upstream, one scoring every call against a policies file, one not. 128
 * concurrent streams through each, alternating, and the per-event latency the agent sees.
 * Writes bench/results/shadow-<timestamp>.json and docs/shadow-benchmarks.md.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  proxyArgs as proxyCommand,
  startChild as startChildProcess,
  startedChildren,
} from './start-child.js';
import { percentile, runRequests, runStreams, type StreamSample } from './measure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const round = (value: number, digits = 3): number =>
  Math.round(value * 10 ** digits) / 10 ** digits;
const round3 = (value: number): number => round(value, 3);

const startChild = (args: string[], env: Record<string, string>, portPattern: RegExp) =>
  startChildProcess(root, args, env, portPattern);

const folder = mkdtempSync(join(tmpdir(), 'calltape-shadow-bench-'));
const policies = join(folder, 'policies.yaml');
writeFileSync(
  policies,
  `sessions: { idle_timeout: 1s }
policies:
  - { id: schema, kind: schema }
  - { id: weather-args, kind: arguments, tool: get_weather, arguments: { city: { pattern: '[A-Z][a-z]+' }, unit: { any_of: [celsius, fahrenheit] } } }
  - { id: never-delete, kind: never, tools: [delete_account] }
  - { id: budget, kind: steps, max_steps: 20, max_repeats: 3 }
`,
);
const upstream = await startChild([join(root, 'dist/bench/bench-upstream.js')], {}, /^(\d+)\n/);
const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
const proxyArgs = proxyCommand(root, upstreamUrl, 'passthrough');
const env = { CALLTAPE_CONFIG: join(root, 'proxy.config.json') };
const off = await startChild(proxyArgs, env, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
const on = await startChild(
  [...proxyArgs, '--policies', policies, '--shadow-db', join(folder, 'shadow.sqlite')],
  env,
  /listening on http:\/\/127\.0\.0\.1:(\d+)/,
);
const targets = [
  { name: 'shadow off', origin: `http://127.0.0.1:${off.port}` },
  { name: 'shadow on', origin: `http://127.0.0.1:${on.port}` },
] as const;
const path = '/v1/chat/completions';

process.stderr.write('warming up…\n');
for (const target of targets) {
  await runRequests(target.origin, path, 8, quick ? 300 : 1000);
  await runStreams(target.origin, path, 16, 2);
}

// Alternating rounds, so drift on the machine lands on both sides alike.
const samples: Record<string, StreamSample[]> = { 'shadow off': [], 'shadow on': [] };
/** Per-event p50 of each round, per side: the spread between rounds of one side is the noise floor. */
const roundP50: Record<string, number[]> = { 'shadow off': [], 'shadow on': [] };
const rounds = quick ? 1 : 6;
for (let index = 0; index < rounds; index++) {
  for (const target of index % 2 === 0 ? targets : [...targets].reverse()) {
    process.stderr.write(`round ${index + 1}: 128 streams → ${target.name}\n`);
    const round = await runStreams(target.origin, path, 128, quick ? 2 : 4);
    samples[target.name]?.push(...round);
    roundP50[target.name]?.push(
      round3(
        percentile(
          round.flatMap((sample) => sample.eventLatenciesMs),
          50,
        ),
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
    ttfbP99: round(
      percentile(
        list.map((sample) => sample.ttfbMs),
        99,
      ),
    ),
  };
};
const streaming = {
  off: summarise(samples['shadow off'] ?? []),
  on: summarise(samples['shadow on'] ?? []),
};

const throughput: Record<string, { requestsPerSecond: number; p50: number; p99: number }> = {};
for (const target of targets) {
  process.stderr.write(`non-streaming ×50 → ${target.name}\n`);
  const sample = await runRequests(target.origin, path, 50, quick ? 500 : 3000);
  throughput[target.name] = {
    requestsPerSecond: round(sample.requestsPerSecond, 1),
    p50: round(percentile(sample.latenciesMs, 50)),
    p99: round(percentile(sample.latenciesMs, 99)),
  };
}

await new Promise((resolve) => setTimeout(resolve, 1500));
const metrics = await (await fetch(`${targets[1].origin}/metrics`)).text();
const counter = (name: string): number =>
  metrics
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
const shadow = {
  queued: counter('calltape_shadow_queued_total'),
  dropped: counter('calltape_shadow_dropped_total'),
  callsScored: counter('calltape_tool_calls_scored_total'),
};

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  streaming,
  ratios: {
    eventP50: round(streaming.on.eventP50 / streaming.off.eventP50, 2),
    eventP99: round(streaming.on.eventP99 / streaming.off.eventP99, 2),
  },
  roundP50,
  throughput,
  shadow,
};
const stamp = result.date.replace(/[:.]/g, '-');
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, `bench/results/shadow-${stamp}.json`),
  `${JSON.stringify(result, null, 2)}\n`,
);
const lines = [
  '# Shadow scoring: on vs off',
  '',
  `Generated by \`npm run bench\` (bench/shadow-bench.ts) on ${result.date}: ${result.machine.cpus} × ${result.machine.model ?? 'cpu'}, Node ${result.machine.node}.`,
  'Two calltape proxies in passthrough mode in front of the same upstream (20 events 5 ms apart per stream), one scoring every tool call against four policies, one not; alternating rounds of 128 concurrent streams.',
  '',
  '| 128 streams | per-event p50 | per-event p99 | TTFB p50 | TTFB p99 | events |',
  '|---|---|---|---|---|---|',
  `| shadow off | ${streaming.off.eventP50} ms | ${streaming.off.eventP99} ms | ${streaming.off.ttfbP50} ms | ${streaming.off.ttfbP99} ms | ${streaming.off.events} |`,
  `| shadow on | ${streaming.on.eventP50} ms | ${streaming.on.eventP99} ms | ${streaming.on.ttfbP50} ms | ${streaming.on.ttfbP99} ms | ${streaming.on.events} |`,
  '',
  `On ÷ off: per-event p50 **${result.ratios.eventP50}×**, p99 **${result.ratios.eventP99}×** (target: no measurable difference at p50, at most 1.10× at p99).`,
  '',
  `Per-event p50 of each round (ms), the noise floor: off ${roundP50['shadow off']?.join(', ')}; on ${roundP50['shadow on']?.join(', ')}.`,
  '',
  '| non-streamed, 50 connections | requests/s | p50 | p99 |',
  '|---|---|---|---|',
  ...targets.map(
    (target) =>
      `| ${target.name} | ${throughput[target.name]?.requestsPerSecond} | ${throughput[target.name]?.p50} ms | ${throughput[target.name]?.p99} ms |`,
  ),
  '',
  `The scoring side kept up: ${shadow.queued} round trips queued, ${shadow.dropped} dropped, ${shadow.callsScored} tool calls scored.`,
  '',
];
writeFileSync(join(root, 'docs/shadow-benchmarks.md'), lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
for (const child of startedChildren()) child.kill('SIGTERM');
process.exit(0);
