/**
 * `node dist/bench/store-bench.js`: what the store worker costs per recorded round, alone. The
 * real recorder (`startWorkerRecorder`, the proxy's configuration) is fed captured rounds shaped
 * like the proxy bench's traffic — an OpenAI SDK request with a credential, a whole answer or a
 * 20-event stream — at 500 rounds/s (10 every 20 ms, batched by the recorder as in the proxy), and the store worker
 * thread's CPU time is read from /proc per round (contention on a shared machine moves it far
 * less than wall-clock time). Every round is checked to be in the cassette afterwards.
 * Flags: `--quick`, `--rounds N` (measured rounds per case, default 3000), `--only whole` or
 * `--only stream` (one case, to compare builds faster).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { CapturedRound } from '../src/cassette/captured-round.js';
import { timeOrderedId } from '../src/cassette/time-ordered-id.js';
import { startWorkerRecorder } from '../src/cassette/worker-recorder.js';
import { loadConfig } from '../src/config/load-config.js';
import { threadCpuUs } from './process-cpu.js';
import { chatStreamEvent, completionFor, plainBody, streamBody } from './chat-traffic.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const roundsFlag = process.argv.indexOf('--rounds');
const measured = roundsFlag > 0 ? Number(process.argv[roundsFlag + 1]) : quick ? 500 : 3000;
const warmUp = quick ? 500 : 3000;
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag > 0 ? process.argv[onlyFlag + 1] : undefined;
if (only !== undefined && only !== 'whole' && only !== 'stream')
  throw new Error(`--only takes whole or stream, not ${only}`);
const { config } = loadConfig({ config: join(root, 'proxy.config.json') }, {}, root);
const encoder = new TextEncoder();

/** What the official openai package sends beside the body. */
const requestHeaders = {
  host: '127.0.0.1:4545',
  connection: 'keep-alive',
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer sk-proj-BENCHbench0123456789abcdefABCDEF0123456789',
  'user-agent': 'OpenAI/JS 4.104.0',
  'x-stainless-lang': 'js',
  'x-stainless-package-version': '4.104.0',
  'x-stainless-os': 'Linux',
  'x-stainless-arch': 'x64',
  'x-stainless-runtime': 'node',
  'x-stainless-runtime-version': 'v20.20.2',
  'x-stainless-retry-count': '0',
  'content-length': '230',
};
const completion = encoder.encode(completionFor('chatcmpl-bench', ['Paris']));
/** The bench upstream's stream: 20 events of a tool call's arguments, then the finish and [DONE]. */
const streamChunks = Array.from({ length: 21 }, (_, n) =>
  encoder.encode(chatStreamEvent(n, 20, 1764604800000.123 + n)),
);
const requestBodies = { plain: encoder.encode(plainBody), stream: encoder.encode(streamBody) };

function round(stream: boolean): CapturedRound {
  const id = timeOrderedId();
  const chunks = stream ? streamChunks : [completion];
  return {
    adapterId: 'openai-chat',
    request: {
      id,
      sessionId: id,
      method: 'POST',
      path: '/v1/chat/completions',
      headers: requestHeaders,
      body: stream ? requestBodies.stream : requestBodies.plain,
      startedAt: Date.now(),
    },
    upstream: {
      status: 200,
      headers: stream
        ? { 'content-type': 'text/event-stream', date: new Date().toUTCString() }
        : {
            'content-type': 'application/json',
            'content-length': String(completion.length),
            date: new Date().toUTCString(),
            connection: 'keep-alive',
            'keep-alive': 'timeout=120',
          },
      chunks,
      chunkTimes: chunks.map((_, index) => 0.4 + index * 5.1),
      firstByteMs: 0.4,
      totalMs: 0.5 + (chunks.length - 1) * 5.1,
      ending: 'finished',
      errorMessage: undefined,
    },
    match: undefined,
    proxyError: undefined,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Feeds rounds at 500/s, 10 every 20 ms. */
async function feed(
  record: (round: CapturedRound) => void,
  stream: boolean,
  count: number,
): Promise<void> {
  for (let sent = 0; sent < count; sent += 10) {
    for (let index = 0; index < 10; index++) record(round(stream));
    await sleep(20);
  }
}

function storedCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM interactions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function measure(stream: boolean): Promise<{ workerUs: number; lost: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-store-bench-'));
  const cassette = join(folder, 'bench.sqlite');
  const threadsBefore = new Set(readdirSync('/proc/self/task'));
  const errors: string[] = [];
  const recorder = startWorkerRecorder(config, (message) => errors.push(message));
  await recorder.open(cassette);
  const workerThreads = readdirSync('/proc/self/task').filter((tid) => !threadsBefore.has(tid));
  const workerCpu = (): number =>
    workerThreads.reduce((sum, tid) => sum + (threadCpuUs('self', tid) ?? 0), 0);
  const settle = async (expected: number): Promise<void> => {
    while (storedCount(cassette) + errors.length < expected) await sleep(50);
  };
  const record = (captured: CapturedRound): void => recorder.record(cassette, captured);
  await feed(record, stream, warmUp);
  await settle(warmUp);
  const before = workerCpu();
  await feed(record, stream, measured);
  await settle(warmUp + measured);
  const workerUs = workerCpu() - before;
  await recorder.close();
  const lost = warmUp + measured - storedCount(cassette);
  rmSync(folder, { recursive: true, force: true });
  if (errors.length > 0) process.stderr.write(`${errors.slice(0, 3).join('\n')}\n`);
  return { workerUs: workerUs / measured, lost };
}

process.stdout.write(
  `store worker, ${measured} rounds per case at 500/s, 10 every 20 ms (after ${warmUp} to warm up), µs per round:\n`,
);
let lostAny = false;
for (const stream of only === undefined ? [false, true] : [only === 'stream']) {
  const { workerUs, lost } = await measure(stream);
  lostAny ||= lost !== 0;
  process.stdout.write(
    `  ${(stream ? 'streamed (21 chunks)' : 'whole answer').padEnd(22)} worker ${workerUs
      .toFixed(0)
      .padStart(5)}   lost ${lost}\n`,
  );
}
process.exit(lostAny ? 1 : 0);
