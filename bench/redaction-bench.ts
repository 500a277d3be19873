/**
 * `node dist/bench/redaction-bench.js`: what the one redaction step costs per stored round trip,
 * on the store's worker-thread path (buildExchange). A streamed answer with text and a tool
 * call is built four ways in one run, side by side: no redaction rules beyond the header
 * allowlist, the built-in key shapes, the built-ins plus the credential the agent sent, and the
 * built-ins plus one configured `redact.bodyPatterns` rule (which runs on the linear-time RE2 engine).
 */
import { buildExchange } from '../src/cassette/build-exchange.js';
import type { CapturedRound } from '../src/cassette/captured-round.js';
import { createRedactor } from '../src/cassette/redact.js';
import { openAiChatAdapter } from '../src/providers/openai-chat/openai-chat-adapter.js';
import { chatCompletionChunks, encodeSse } from '../test/support/openai-chat-chunks.js';
import { seededRandom } from '../test/support/random.js';
import { quick } from './bench-flags.js';

const sse = new TextEncoder().encode(
  encodeSse(
    chatCompletionChunks(
      {
        text: 'Checking the weather in Paris for you. '.repeat(20),
        toolCalls: [
          {
            name: 'get_weather',
            arguments: JSON.stringify({ city: 'Paris', unit: 'celsius', note: 'x'.repeat(200) }),
          },
        ],
      },
      seededRandom(7),
      { includeUsage: true },
    ),
  ),
);
const chunks = Array.from({ length: Math.ceil(sse.length / 512) }, (_, index) =>
  sse.subarray(index * 512, (index + 1) * 512),
);
const requestBody = new TextEncoder().encode(
  JSON.stringify({
    model: 'gpt-4o-mini',
    stream: true,
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
  }),
);

function round(withCredential: boolean): CapturedRound {
  return {
    adapterId: 'openai-chat',
    request: {
      id: 'r',
      sessionId: 'r',
      method: 'POST',
      path: '/v1/chat/completions',
      headers: {
        'content-type': 'application/json',
        ...(withCredential ? { authorization: 'Bearer proj-BENCHKEY0123456789abcdef' } : {}),
      },
      body: requestBody,
      startedAt: 0,
    },
    upstream: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks,
      chunkTimes: chunks.map((_, index) => index),
      firstByteMs: 0,
      totalMs: chunks.length,
      ending: 'finished',
      errorMessage: undefined,
    },
    match: undefined,
    proxyError: undefined,
  };
}

/** A typical configured rule: an internal account id shape. */
const configuredPattern = {
  pattern: 'acct_[0-9a-f]{12,}',
  flags: '',
  replacement: '[REDACTED:account]',
};

function perRoundMicroseconds(
  builtins: boolean,
  withCredential: boolean,
  configured: boolean,
  rounds: number,
): number {
  const redactor = createRedactor([], configured ? [configuredPattern] : [], builtins);
  const captured = round(withCredential);
  for (let index = 0; index < 200; index++) buildExchange(openAiChatAdapter, redactor, captured);
  const start = performance.now();
  for (let index = 0; index < rounds; index++) buildExchange(openAiChatAdapter, redactor, captured);
  return ((performance.now() - start) * 1000) / rounds;
}

const rounds = quick ? 500 : 3000;
const cases = [
  ['header allowlist only', false, false, false],
  ['+ built-in key shapes', true, false, false],
  ['+ the agent credential', true, true, false],
  ['built-ins + 1 RE2 pattern', true, false, true],
] as const;
// Interleaved twice, so drift on a shared machine hits every case alike.
const results = cases.map(([name]) => ({ name, us: [] as number[] }));
for (let pass = 0; pass < 2; pass++)
  cases.forEach(([, builtins, credential, configured], index) =>
    results[index]?.us.push(perRoundMicroseconds(builtins, credential, configured, rounds)),
  );
const base = Math.min(...(results[0]?.us ?? [1]));
process.stdout.write(
  `buildExchange on a ${sse.length}-byte stream in ${chunks.length} chunks, ${rounds} rounds per case, best of 2:\n`,
);
for (const { name, us } of results)
  process.stdout.write(
    `  ${name.padEnd(26)} ${Math.min(...us)
      .toFixed(1)
      .padStart(8)} µs/round   ×${(Math.min(...us) / base).toFixed(2)}\n`,
  );
