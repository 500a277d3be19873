/**
 * `npm run bench:soak` (not part of `npm test`): calltape recording under mixed traffic for a
 * long run — streams on each wire, non-streamed requests, parallel tool calls, streams the agent
 * aborts — with the proxy's RSS and event-loop delay sampled from inside it (`process-probe`)
 * every `--sample-seconds`. At the end it checks nothing was lost (every round trip sent is a row
 * of the cassette, every parallel call a tool-call row) and writes docs/soak.svg,
 * docs/benchmarks-soak.md and bench/results/soak-<timestamp>.json.
 * Flags: `--minutes N` (default 30), `--sample-seconds N` (default 10), `--workers N` (default 24).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { Pool } from 'undici';
import { numberFlag } from './bench-flags.js';
import { countRows } from './count-rows.js';
import { readProbe } from './probe-reader.js';
import { proxyArgs, proxyListening, startBenchUpstream, startChild } from './start-child.js';
import { svgPlot } from './svg-plot.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const minutes = numberFlag('--minutes', 30);
const sampleSeconds = numberFlag('--sample-seconds', 10);
const workers = numberFlag('--workers', 24);
const folder = mkdtempSync(join(tmpdir(), 'calltape-soak-'));
const cassette = join(folder, 'soak.sqlite');
const probeOut = join(folder, 'calltape.probe.jsonl');

const upstream = await startBenchUpstream(root);
const upstreamUrl = upstream.url;
const proxy = await startChild(
  root,
  [
    '--import',
    join(root, 'dist/bench/process-probe.js'),
    ...proxyArgs(root, upstreamUrl, 'record', '--cassette', cassette),
  ],
  { CALLTAPE_CONFIG: join(root, 'proxy.config.json'), BENCH_PROBE_OUT: probeOut },
  proxyListening,
);
const pid = proxy.child.pid ?? 0;
const pool = new Pool(`http://127.0.0.1:${proxy.port}`, { connections: workers, pipelining: 1 });

type Kind =
  | 'chat stream'
  | 'responses stream'
  | 'messages stream'
  | 'plain'
  | 'parallel tool calls'
  | 'aborted stream';
/** Each kind of round trip and its share of the traffic. */
const mix: readonly (readonly [Kind, number])[] = [
  ['chat stream', 0.3],
  ['responses stream', 0.1],
  ['messages stream', 0.1],
  ['plain', 0.25],
  ['parallel tool calls', 0.1],
  ['aborted stream', 0.15],
];
const body = (stream: boolean, parallel = false): string =>
  JSON.stringify({
    model: 'gpt-4o-mini',
    stream,
    ...(parallel ? { parallel_tool_calls: true } : {}),
    messages: [{ role: 'user', content: 'What is the weather in Paris, Oslo and Lima?' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ],
  });
const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-soak-0123456789' };
const sent = new Map<Kind, number>(mix.map(([kind]) => [kind, 0]));
let failures = 0;

async function once(kind: Kind): Promise<void> {
  const path =
    kind === 'responses stream'
      ? '/v1/responses'
      : kind === 'messages stream'
        ? '/v1/messages'
        : '/v1/chat/completions';
  const stream = kind.endsWith('stream');
  const abort = new AbortController();
  sent.set(kind, (sent.get(kind) ?? 0) + 1);
  try {
    const response = await pool.request({
      method: 'POST',
      path,
      headers,
      body: body(stream, kind === 'parallel tool calls'),
      signal: abort.signal,
    });
    for await (const _chunk of response.body) if (kind === 'aborted stream') abort.abort();
  } catch (error) {
    if (kind !== 'aborted stream') {
      failures++;
      process.stderr.write(`${kind}: ${(error as Error).message}\n`);
    }
  }
}

function pick(): Kind {
  let roll = Math.random();
  for (const [kind, share] of mix) if ((roll -= share) < 0) return kind;
  return 'plain';
}

interface Sample {
  readonly minute: number;
  readonly rssMb: number;
  readonly eventLoopP99Ms: number;
  readonly eventLoopMaxMs: number;
  readonly requests: number;
  readonly cpuUsPerRequest: number;
}
const samples: Sample[] = [];
const started = performance.now();
const deadline = started + minutes * 60_000;
const total = (): number => [...sent.values()].reduce((sum, count) => sum + count, 0);
let previous = { cpuUs: (await readProbe(pid, probeOut)).cpuUs, requests: 0 };
const sampler = (async () => {
  while (performance.now() < deadline) {
    await new Promise((resolve) =>
      setTimeout(
        resolve,
        Math.min(sampleSeconds * 1000, Math.max(0, deadline - performance.now())),
      ),
    );
    const window = await readProbe(pid, probeOut);
    const requests = total();
    samples.push({
      minute: (performance.now() - started) / 60_000,
      rssMb: window.rssMb,
      eventLoopP99Ms: window.eventLoopDelayMs.p99,
      eventLoopMaxMs: window.eventLoopDelayMs.max,
      requests: requests - previous.requests,
      cpuUsPerRequest: Math.round(
        (window.cpuUs - previous.cpuUs) / Math.max(1, requests - previous.requests),
      ),
    });
    previous = { cpuUs: window.cpuUs, requests };
    const last = samples.at(-1);
    process.stderr.write(
      `${last?.minute.toFixed(1)} min: RSS ${last?.rssMb} MB, event-loop p99 ${last?.eventLoopP99Ms} ms, ${requests} round trips\n`,
    );
  }
})();
await Promise.all(
  Array.from({ length: workers }, async () => {
    while (performance.now() < deadline) await once(pick());
  }),
);
await sampler;
await pool.close();
proxy.child.kill('SIGTERM');
await new Promise((resolve) => proxy.child.once('exit', resolve));
upstream.child.kill('SIGTERM');

const stored = countRows(cassette);
// Only the parallel requests are answered with three calls in one turn.
const parallelCalls =
  3 *
  countRows(
    cassette,
    'SELECT count(*) FROM (SELECT interaction_id FROM tool_calls GROUP BY interaction_id HAVING count(*) = 3)',
  );
const sentTotal = total();
const parallelSent = sent.get('parallel tool calls') ?? 0;
const lost = sentTotal - stored;
// After warm-up (the first quarter), RSS should stay flat: growth from the second quarter's peak to the last quarter's.
const quarter = (index: number): Sample[] =>
  samples.filter((sample) => Math.floor((sample.minute / minutes) * 4) === index);
const peak = (list: Sample[]): number => Math.max(0, ...list.map((sample) => sample.rssMb));
const rssGrowthMb = Math.round((peak(quarter(3)) - peak(quarter(1))) * 10) / 10;
// Medians per quarter and their slope from the second quarter to the last: two peaks say little,
// since one transient outweighs minutes of steady growth (an 8-minute run on the contended machine
// rose 30 MB for half a minute and fell back), and a least-squares line is bent by it too.
const quarterMedians = [0, 1, 2, 3].map((index) => {
  const list = quarter(index).map((sample) => sample.rssMb);
  return list.length > 0 ? Math.round(median(list) * 100) / 100 : 0;
});
const roundsPerMinute = (index: number): number =>
  quarter(index).reduce((sum, sample) => sum + sample.requests, 0) / (minutes / 4);
// The second quarter's centre and the last one's are half the run apart.
const slope = ((quarterMedians[3] ?? 0) - (quarterMedians[1] ?? 0)) / (minutes / 2);
const rssSlope = {
  quarterMediansMb: quarterMedians,
  mbPerMinute: Math.round(slope * 100) / 100,
  mbPer100kRounds:
    Math.round(
      (slope / Math.max(1, median([1, 2, 3].map((index) => roundsPerMinute(index))))) * 1e7,
    ) / 100,
};
const label = `${minutes} min`;
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  settings: { minutes, sampleSeconds, workers, mix },
  sent: Object.fromEntries(sent),
  failures,
  stored,
  lost,
  parallel: { sent: parallelSent, callsStored: parallelCalls },
  rssGrowthMb,
  rssSlope,
  samples,
};
const plot = svgPlot(
  `calltape soak, ${label} of mixed traffic (${result.date.slice(0, 16)} UTC, ${workers} concurrent agents)`,
  [
    {
      title: 'proxy RSS',
      unit: 'MB',
      series: [
        {
          name: 'RSS',
          colour: '#1f77b4',
          points: samples.map((sample) => [sample.minute, sample.rssMb]),
        },
      ],
    },
    {
      title: 'event-loop delay in the proxy',
      unit: 'ms',
      series: [
        {
          name: 'p99',
          colour: '#d62728',
          points: samples.map((sample) => [sample.minute, sample.eventLoopP99Ms]),
        },
        {
          name: 'max',
          colour: '#ff9896',
          points: samples.map((sample) => [sample.minute, sample.eventLoopMaxMs]),
        },
      ],
    },
  ],
);
const lines = [
  '# Soak: calltape recording mixed traffic',
  '',
  `Generated by \`npm run bench:soak -- --minutes ${minutes}\` (bench/soak-bench.ts) on ${result.date} (${result.machine.cpus} cores, ${result.machine.model ?? 'unknown CPU'}, Node ${result.machine.node}): **${label}**, ${workers} concurrent agents against the scripted upstream, sampled every ${sampleSeconds} s from inside the proxy.`,
  `Traffic mix: ${mix.map(([kind, share]) => `${kind} ${Math.round(share * 100)}%`).join(', ')}.`,
  '',
  '![RSS and event-loop delay over the run](soak.svg)',
  '',
  `- Round trips sent: ${sentTotal} (${[...sent].map(([kind, n]) => `${kind} ${n}`).join(', ')}); client-side failures other than the deliberate aborts: ${failures}.`,
  `- Stored in the cassette: ${stored} — ${lost === 0 ? '**nothing lost**' : `**${lost} missing**`}; parallel tool calls: ${parallelSent} round trips sent, ${parallelCalls} tool-call rows stored (${parallelSent * 3} expected).`,
  `- RSS after warm-up: peak of the second quarter ${peak(quarter(1))} MB, of the last quarter ${peak(quarter(3))} MB (growth ${rssGrowthMb} MB).`,
  `- Median RSS per quarter: ${quarterMedians.join(' / ')} MB; from the second quarter to the last ${rssSlope.mbPerMinute} MB/min (${rssSlope.mbPer100kRounds} MB per 100,000 round trips).`,
  `- Event-loop delay p99 per sample: median ${[...samples.map((sample) => sample.eventLoopP99Ms)].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? '–'} ms, worst ${Math.max(0, ...samples.map((sample) => sample.eventLoopP99Ms))} ms.`,
  '',
];
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, `bench/results/soak-${result.date.replace(/[:.]/g, '-')}.json`),
  `${JSON.stringify(result, null, 2)}\n`,
);
writeFileSync(join(root, 'docs/soak.svg'), plot);
writeFileSync(join(root, 'docs/benchmarks-soak.md'), lines.join('\n'));
process.stdout.write(lines.join('\n'));
process.exit(lost === 0 && parallelCalls === parallelSent * 3 && failures === 0 ? 0 : 1);
