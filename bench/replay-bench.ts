/**
 * Replay benchmark (part of `npm run bench`): cassettes of 1k, 10k and 100k interactions are
 * generated, `calltape proxy --mode replay` serves each, and a load generator replays random
 * recorded requests. Lookup goes through an index, so latency must not grow with cassette size.
 * Writes bench/results/replay-<timestamp>.json and docs/benchmarks-replay.md.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { buildExchange } from '../src/cassette/build-exchange.js';
import { keyOf, keyProfile } from '../src/cassette/match-key.js';
import { createRedactor } from '../src/cassette/redact.js';
import { SqliteStore } from '../src/cassette/sqlite/sqlite-store.js';
import { defaultConfig } from '../src/config/config.js';
import { openAiChatAdapter } from '../src/providers/openai-chat/openai-chat-adapter.js';
import { timeOrderedId } from '../src/cassette/time-ordered-id.js';
import { numberFlag, quick, textFlag } from './bench-flags.js';
import { completionFor } from './chat-traffic.js';
import { percentile, round } from './measure.js';
import { measureReplayPerCall } from './replay-per-call.js';
import { spread } from './round-spread.js';
import { proxyListening, startBenchUpstream, startChild } from './start-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const only = textFlag('--only');
const sizes = only === 'per-call' ? [] : quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
/** `--before DIR`: another build's package folder, replayed per call beside this one. */
const before = textFlag('--before');
/** Session ids stay unique across every load run against one proxy. */
let sessions = 0;

const requestBody = (i: number): string =>
  JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: `What is the weather in city #${i}?` },
    ],
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
// The benches' shared answer shape, one call per round trip.
const responseBody = (i: number): Buffer =>
  Buffer.from(completionFor(`chatcmpl-${i}`, [`city #${i}`]));

function generateCassette(path: string, size: number): void {
  const store = new SqliteStore(path);
  const redactor = createRedactor([], []);
  const profile = keyProfile(defaultConfig.match);
  const headers = { 'content-type': 'application/json' };
  for (let start = 0; start < size; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(size, start + 1000); i++) {
      const body = requestBody(i);
      const keyed = keyOf(
        'POST',
        '/v1/chat/completions',
        headers,
        JSON.parse(body),
        defaultConfig.match,
      );
      const id = timeOrderedId();
      batch.push(
        buildExchange(openAiChatAdapter, redactor, {
          adapterId: 'openai-chat',
          request: {
            id,
            sessionId: id,
            method: 'POST',
            path: '/v1/chat/completions',
            headers,
            body: Buffer.from(body),
            startedAt: Date.now(),
          },
          upstream: {
            status: 200,
            headers: { 'content-type': 'application/json' },
            chunks: [responseBody(i)],
            chunkTimes: [5],
            firstByteMs: 5,
            totalMs: 5,
            ending: 'finished',
            errorMessage: undefined,
          },
          match: { key: keyed.key, profile, canonical: keyed.text, ordinal: 0, scope: '' },
          proxyError: undefined,
        }),
      );
    }
    store.append(batch);
  }
  store.close();
}

function startReplayProxy(cassette: string): Promise<{ child: ChildProcess; port: number }> {
  return startChild(
    root,
    [
      join(root, 'dist/src/cli/main.js'),
      'proxy',
      '--port',
      '0',
      '--mode',
      'replay',
      '--cassette',
      cassette,
      '--log-level',
      'error',
    ],
    {},
    proxyListening,
  );
}

async function replayLoad(
  port: number,
  size: number,
  connections: number,
  durationMs: number,
  sessionPerRequest = true,
): Promise<{ perSecond: number; latencies: number[]; misses: number }> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let misses = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const i = Math.floor(Math.random() * size);
        const begin = performance.now();
        // A session per request: every lookup is the first of its key in its scope.
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (sessionPerRequest) headers['x-calltape-session'] = `bench-${sessions++}`;
        const response = await pool.request({
          method: 'POST',
          path: '/v1/chat/completions',
          headers,
          body: requestBody(i),
        });
        await response.body.arrayBuffer();
        latencies.push(performance.now() - begin);
        if (response.statusCode !== 200) {
          misses++;
          if (process.env['BENCH_DEBUG'])
            process.stderr.write(`miss ${response.statusCode} for ${i}\n`);
        }
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  return { perSecond: (latencies.length / elapsed) * 1000, latencies, misses };
}

/** A bench script (the upstream, a talkback server) in its own process, printing its port. */
const startScript = (
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> =>
  startChild(root, [join(root, script)], env, /^(\d+)\n/);

/** talkback tapes for the same requests, recorded through talkback itself against the bench upstream. */
async function recordTalkbackTapes(folder: string, size: number, upstream: string): Promise<void> {
  const recorder = await startScript('dist/bench/talkback-server.js', {
    BENCH_TALKBACK_MODE: 'record',
    BENCH_UPSTREAM: upstream,
    BENCH_TAPES: folder,
  });
  const pool = new Pool(`http://127.0.0.1:${recorder.port}`, { connections: 8 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < size; i = next++)
        await (
          await pool.request({
            method: 'POST',
            path: '/v1/chat/completions',
            headers: { 'content-type': 'application/json' },
            body: requestBody(i),
          })
        ).body.arrayBuffer();
    }),
  );
  await pool.close();
  recorder.child.kill('SIGKILL');
}

const folder = mkdtempSync(join(tmpdir(), 'calltape-replay-bench-'));
const rows: {
  tool: string;
  size: number;
  generateMs: number;
  connections: number;
  perSecond: number;
  p50: number;
  p99: number;
  misses: number;
}[] = [];
const benchUpstream = await startBenchUpstream(root);

/** Warms `tool` up on its port, then replays against it at 1 and 16 connections, a row each. */
async function measureTool(
  tool: string,
  port: number,
  size: number,
  generateMs: number,
  sessionPerRequest: boolean,
): Promise<void> {
  await replayLoad(port, size, 8, quick ? 300 : 1000, sessionPerRequest);
  for (const connections of [1, 16]) {
    process.stderr.write(`${tool === 'calltape' ? 'replay' : tool} ${size} × ${connections}\n`);
    const sample = await replayLoad(port, size, connections, quick ? 500 : 3000, sessionPerRequest);
    rows.push({
      tool,
      size,
      generateMs: round(generateMs, 0),
      connections,
      perSecond: round(sample.perSecond, 1),
      p50: round(percentile(sample.latencies, 50)),
      p99: round(percentile(sample.latencies, 99)),
      misses: sample.misses,
    });
  }
}

const perCallRounds = numberFlag('--per-call-rounds', quick ? 2 : 7);
const perCall = await measureReplayPerCall(
  root,
  folder,
  before === undefined
    ? [['', root]]
    : [
        ['before', before],
        ['after', root],
      ],
  numberFlag('--per-call-calls', 1000),
  perCallRounds,
  !process.argv.includes('--no-talkback'),
);
const floor = perCall[0]?.msPerCall ?? [];

// talkback records in O(n²) (each new tape is compared with all before it): 10k tapes took minutes.
const talkbackSizes = quick ? [1_000] : [1_000, 5_000];
for (const size of sizes) {
  const cassette = join(folder, `c${size}.sqlite`);
  const began = performance.now();
  generateCassette(cassette, size);
  const generateMs = performance.now() - began;
  const proxy = await startReplayProxy(cassette);
  await measureTool('calltape', proxy.port, size, generateMs, true);
  proxy.child.kill('SIGTERM');
  await new Promise((resolve) => proxy.child.once('exit', resolve));

  if (!talkbackSizes.includes(size)) continue;
  const tapes = join(folder, `tapes-${size}`);
  const began2 = performance.now();
  await recordTalkbackTapes(tapes, size, benchUpstream.url);
  const tapeMs = performance.now() - began2;
  const talkbackServer = await startScript('dist/bench/talkback-server.js', {
    BENCH_TALKBACK_MODE: 'replay',
    BENCH_TAPES: tapes,
  });
  await measureTool('talkback', talkbackServer.port, size, tapeMs, false);
  talkbackServer.child.kill('SIGKILL');
}

const date = new Date().toISOString();
const lines = [
  '# Replay benchmark',
  '',
  `Generated by \`npm run bench\` on ${date} (${cpus().length} cores, Node ${process.version}). \`calltape proxy --mode replay\` serves`,
  'cassettes of each size; the load generator (same machine) replays random recorded non-streamed requests',
  '(a distinct session per request, so each is the first of its key). Every request hashes its canonical body',
  'and finds its recording through an index, so the cost must not grow with the cassette.',
  '',
  'talkback 4 (a VCR proxy peer) replays the same requests from tapes it recorded itself, in its own process too;',
  'it keeps every tape in memory and compares a request with them one by one. It is measured up to 5k',
  'recordings: it records in O(n²) too, so 10k tapes took minutes (a one-off run measured 18 replays/s at 10k, p99 3.8 s at 16 connections).',
  '',
  '## Replay per call',
  '',
  `1,000 recorded calls sent one after another by the \`openai\` package (odd ones streamed, answers of 2–20 KB),`,
  `${perCallRounds} rounds, each sending all of them once through every path in alternating order; ms per call`,
  'and its ratio to the floor in the same round, min / **median** / max. Every server runs in its own process.',
  '',
  '| path | ms per call | × floor | server CPU ms per call |',
  '| --- | --- | --- | --- |',
  ...perCall.map(
    (row) =>
      `| ${row.path} | ${spread(row.msPerCall, 2)} | ${spread(
        row.msPerCall.map((ms, i) => ms / (floor[i] ?? Number.NaN)),
        2,
        '×',
      )} | ${spread(row.cpuMsPerCall, 3)} |`,
  ),
  '',
  '## Replay by cassette size',
  '',
  '| tool | recordings | connections | replays/s | latency p50 (ms) | latency p99 (ms) | misses |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.tool} | ${row.size.toLocaleString('en-US')} | ${row.connections} | ${row.perSecond} | ${row.p50} | ${row.p99} | ${row.misses} |`,
  ),
  '',
];
// Only full runs are results; --quick is a smoke check.
if (!quick && only === undefined) {
  writeFileSync(
    join(root, `bench/results/replay-${date.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify({ date, perCall, rows }, null, 2)}\n`,
  );
  writeFileSync(join(root, 'docs/benchmarks-replay.md'), lines.join('\n'));
}
process.stdout.write(lines.join('\n'));
process.exit(0);
