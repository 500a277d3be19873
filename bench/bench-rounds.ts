/**
 * Captured rounds shaped like the proxy bench's traffic, for the benches that feed a worker
 * directly (the store worker, the shadow-scoring worker): what the official openai package sends
 * (headers with a credential, the bench request body) and what the bench upstream answers, a
 * whole answer or a 21-chunk stream.
 */
import type { CapturedRound } from '../src/cassette/captured-round.js';
import { timeOrderedId } from '../src/cassette/time-ordered-id.js';
import { chatStreamEvent, completionFor, plainBody, streamBody } from './chat-traffic.js';

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

/** A fresh round (its own id and session, as the proxy gives a request without a session id). */
export function benchRound(stream: boolean): CapturedRound {
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

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Feeds `count` rounds at 500/s: `perTick` every `perTick * 2` ms. */
export async function feedRounds(
  record: (round: CapturedRound) => void,
  stream: boolean,
  count: number,
  perTick = 10,
): Promise<void> {
  for (let sent = 0; sent < count; sent += perTick) {
    for (let index = 0; index < perTick && sent + index < count; index++)
      record(benchRound(stream));
    await sleep(perTick * 2);
  }
}

/**
 * Runs `measure` for a whole answer, then a stream, prints the worker's µs per round and how many
 * rounds were not handled (`missing`), and exits non-zero when any was not.
 */
export async function reportCases(
  heading: string,
  missing: string,
  measure: (stream: boolean) => Promise<{ readonly workerUs: number; readonly lost: number }>,
  /** Which cases run (false: a whole answer, true: a stream), in order. */
  cases: readonly boolean[] = [false, true],
): Promise<never> {
  process.stdout.write(`${heading}, µs per round:\n`);
  let lostAny = false;
  for (const stream of cases) {
    const { workerUs, lost } = await measure(stream);
    lostAny ||= lost !== 0;
    const label = stream ? 'streamed (21 chunks)' : 'whole answer';
    process.stdout.write(
      `  ${label.padEnd(22)} worker ${workerUs.toFixed(0).padStart(5)}   ${missing} ${lost}\n`,
    );
  }
  process.exit(lostAny ? 1 : 0);
}
