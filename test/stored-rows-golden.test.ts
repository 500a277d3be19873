/**
 * What the store worker writes for a fixed set of captured rounds, compared column by column with
 * a golden file: the recorded SDK streams and answers under `src/providers/<wire>/__fixtures__/`,
 * split into chunks, plus rounds that take every redaction path (the agent's key in the request,
 * in a chunk boundary of the response, split over stream events, in a compressed body, in the
 * query and a cookie; configured and built-in patterns), errors, aborts, mocks and sessions.
 * Speeding up the store must leave these rows byte-identical (issue 21); the golden file was
 * written by the store before that work and is only ever rewritten on purpose (`vitest -u`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturedRound, CapturedUpstream } from '../src/cassette/captured-round.js';
import { startWorkerRecorder } from '../src/cassette/worker-recorder.js';
import { defaultConfig } from '../src/config/config.js';
import { loadConfig } from '../src/config/load-config.js';
import { packageRoot } from '../src/package-root.js';
import type { ProviderId } from '../src/trace/trace.js';
import { chatCompletion } from './support/openai-chat-chunks.js';
import { readRecordedStream, recordedStreams } from './support/recorded-streams.js';
import { splitBytes } from './support/split-bytes.js';

const encoder = new TextEncoder();
const agentKey = 'sk-proj-GOLDENgolden0123456789abcdefABCDEF0123456789';
const anthropicKey = 'sk-ant-api03-GOLDENgolden0123456789abcdefABCDEF01';
const googleKey = 'AIzaSyGOLDENgolden0123456789abcdefABCDE';
const startedAt = 1764604800000;

const pathOf: Record<ProviderId, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
  'ollama-chat': '/api/chat',
  gemini: '/v1beta/models/gemini-2.5-flash:generateContent',
  'bedrock-converse': '/model/amazon.nova-lite-v1%3A0/converse',
  'bedrock-invoke': '/model/anthropic.claude-sonnet-4-5-v1%3A0/invoke',
};

function requestHeaders(wire: ProviderId, extra: Record<string, string> = {}) {
  const credential: Record<string, string> =
    wire === 'anthropic-messages'
      ? { 'x-api-key': anthropicKey, 'anthropic-version': '2023-06-01' }
      : { authorization: `Bearer ${agentKey}` };
  return {
    host: '127.0.0.1:4545',
    connection: 'keep-alive',
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'golden/1.0',
    'x-stainless-lang': 'js',
    'x-organization-id': 'org-dropped',
    'content-length': '100',
    ...credential,
    ...extra,
  };
}

function requestBody(wire: ProviderId, stream: boolean, content: string): Uint8Array {
  const messages = [{ role: 'user', content }];
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];
  const body =
    wire === 'openai-responses'
      ? { model: 'gpt-4.1', stream, input: content, user: 'dropped-by-match', tools: [] }
      : wire === 'anthropic-messages'
        ? { model: 'claude-sonnet-4', max_tokens: 100, stream, messages }
        : { model: 'gpt-4o-mini', stream, messages, tools, metadata: { run: '2026-12-01' } };
  return encoder.encode(JSON.stringify(body));
}

function upstream(
  bytes: Uint8Array,
  stream: boolean,
  options: Partial<CapturedUpstream> & { readonly cuts?: readonly number[] } = {},
): CapturedUpstream {
  const chunks = options.chunks ?? splitBytes(bytes, options.cuts ?? [61, 122, 300, 777, 1500]);
  return {
    status: 200,
    headers: stream
      ? { 'content-type': 'text/event-stream', date: 'Mon, 01 Dec 2026 00:00:00 GMT' }
      : {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          'x-request-id': 'req_golden',
          'set-cookie': 'session=dropped',
        },
    chunkTimes: chunks.map((_, index) => 0.25 + index * 1.125),
    firstByteMs: 0.25,
    totalMs: 0.5 + chunks.length * 1.125,
    ending: 'finished',
    errorMessage: undefined,
    ...options,
    chunks,
  };
}

let sequence = 0;
function round(
  wire: ProviderId,
  stream: boolean,
  answer: CapturedUpstream | undefined,
  options: {
    readonly content?: string;
    readonly headers?: Record<string, string>;
    readonly path?: string;
    readonly sessionId?: string;
    readonly body?: Uint8Array;
    readonly extra?: Partial<CapturedRound>;
  } = {},
): CapturedRound {
  sequence++;
  const id = `0190a000-0000-7000-8000-${String(sequence).padStart(12, '0')}`;
  return {
    adapterId: wire,
    request: {
      id,
      sessionId: options.sessionId ?? id,
      method: 'POST',
      path: options.path ?? pathOf[wire],
      headers: requestHeaders(wire, options.headers),
      body: options.body ?? requestBody(wire, stream, options.content ?? 'What is the weather?'),
      startedAt: startedAt + sequence * 1000,
    },
    upstream: answer,
    match: undefined,
    proxyError: undefined,
    ...options.extra,
  };
}

const chatEvent = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-golden', object: 'chat.completion.chunk', model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const chatStream = (...parts: string[]): Uint8Array =>
  encoder.encode(
    [
      chatEvent({ role: 'assistant', content: '' }),
      ...parts.map((part) => chatEvent({ content: part })),
      chatEvent({}, 'stop'),
      'data: [DONE]\n\n',
    ].join(''),
  );
const completion = (content: string): Uint8Array =>
  encoder.encode(
    JSON.stringify(
      chatCompletion({
        id: 'chatcmpl-golden',
        text: content,
        toolCalls: [{ id: 'call_golden1', name: 'get_weather', arguments: '{"city":"Zürich"}' }],
        usage: { prompt_tokens: 12, completion_tokens: 7 },
      }),
    ),
  );

function fixture(wire: ProviderId, file: string): Uint8Array {
  return readFileSync(join(packageRoot, 'src/providers', wire, '__fixtures__', file));
}

function rounds(): CapturedRound[] {
  const all: CapturedRound[] = [];
  for (const recorded of recordedStreams)
    for (const cuts of [[], [1, 2, 3, 50, 51, 400, 401, 402], [97, 194, 291, 388, 485, 582]])
      all.push(round(recorded.wire, true, upstream(readRecordedStream(recorded), true, { cuts })));
  for (const [wire, file] of [
    ['anthropic-messages', 'ai-sdk-anthropic-mcp.1.json'],
    ['anthropic-messages', 'ai-sdk-anthropic-web-fetch-tool.error.json'],
    ['openai-responses', 'ai-sdk-openai-mcp-tool.1.json'],
    ['openai-responses', 'ai-sdk-openai-web-search-tool.1.json'],
  ] as const)
    all.push(round(wire, false, upstream(fixture(wire, file), false)));
  const chat = 'openai-chat';
  // The agent's key, a configured pattern's match and a built-in one in the request; a query key and a cookie.
  all.push(
    round(chat, false, upstream(completion('ok'), false), {
      content: `my key is ${agentKey}, another sk-${'x'.repeat(24)} and ${googleKey}`,
      path: `/v1/chat/completions?key=${googleKey}&api-version=1`,
      headers: { cookie: `auth=${encodeURIComponent('sëcret value 12345')}; theme=dark` },
    }),
  );
  // The agent's key in the response, across a chunk boundary, after multi-byte text.
  const leaky = completion(`Zürich ☀ — use ${agentKey} or ${anthropicKey}`);
  const at = new TextDecoder().decode(leaky).indexOf(agentKey) + 20;
  all.push(round(chat, false, upstream(leaky, false, { cuts: [at, at + 1, at + 40] })));
  // The agent's key split over two stream events, neither half matching a pattern: stored re-expressed.
  const half = 5;
  all.push(
    round(
      chat,
      true,
      upstream(chatStream('key: ', agentKey.slice(0, half), agentKey.slice(half), '.'), true),
    ),
  );
  // A streamed secret inside one event, bytes split in the middle of it.
  all.push(
    round(
      chat,
      true,
      upstream(chatStream('Grüße ', `${googleKey} ok`), true, { cuts: [150, 151, 160] }),
    ),
  );
  // Compressed answers: one needing redaction (stored decoded), one not (kept compressed).
  for (const content of [`gz ${agentKey}`, 'gz clean'])
    all.push(
      round(
        chat,
        false,
        upstream(gzipSync(completion(content)), false, {
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          cuts: [10, 20],
        }),
      ),
    );
  // Errors, aborts, cuts and a request that never reached the upstream.
  const error = encoder.encode(
    JSON.stringify({ error: { message: `bad key ${agentKey}`, type: 'auth' } }),
  );
  all.push(round(chat, false, upstream(error, false, { status: 401 })));
  all.push(
    round(chat, true, upstream(chatStream('cut', ' off'), true, { ending: 'client-aborted' })),
  );
  all.push(
    round(
      chat,
      true,
      upstream(chatStream('half').subarray(0, 150), true, {
        ending: 'upstream-failed',
        errorMessage: 'socket hang up',
      }),
    ),
  );
  all.push(
    round(
      chat,
      true,
      upstream(chatStream('long'), true, { truncated: 'over limits.maxResponseBytes' }),
    ),
  );
  all.push(
    round(chat, false, undefined, {
      body: encoder.encode('{"model": oops'),
      extra: { proxyError: { status: 400, message: 'invalid JSON' } },
    }),
  );
  // Mock tools: mocked calls, a hidden round and the agent's own view.
  all.push(
    round(chat, false, upstream(completion('mocked'), false), {
      extra: {
        mocked: [
          {
            callId: 'call_golden1',
            name: 'get_weather',
            set: 'default',
            content: `sunny ${agentKey}`,
            isError: false,
            agentResult: 'rain',
          },
        ],
        hidden: true,
        agentView: {
          request: encoder.encode(`{"agent":"${agentKey}"}`),
          response: encoder.encode('{"seen":true}'),
        },
      },
    }),
  );
  // An explicit session, the same request twice (ordinals), and a conversation the chain continues.
  for (let repeat = 0; repeat < 2; repeat++)
    all.push(
      round(chat, false, upstream(completion('again'), false), {
        sessionId: 'session-golden',
        content: 'same at 2026-12-01T10:00:00Z',
      }),
    );
  const first = round(chat, false, upstream(completion('first'), false), { content: 'hello' });
  const followUp = encoder.encode(
    JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'hello' },
        {
          role: 'assistant',
          content: 'first',
          tool_calls: [
            {
              id: 'call_golden1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Zürich"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_golden1', content: '12°C' },
      ],
    }),
  );
  all.push(first, round(chat, false, upstream(completion('second'), false), { body: followUp }));
  return all;
}

/** Every row of the tables a round writes, blobs as base64, in insertion order. */
function storedRows(path: string): unknown {
  const db = new Database(path, { readonly: true });
  const text = (rows: unknown[]): unknown[] =>
    rows.map((row) =>
      Object.fromEntries(
        Object.entries(row as Record<string, unknown>).map(([column, value]) => [
          column,
          Buffer.isBuffer(value) ? `base64:${value.toString('base64')}` : value,
        ]),
      ),
    );
  try {
    return {
      sessions: text(db.prepare('SELECT * FROM sessions ORDER BY rowid').all()),
      interactions: text(db.prepare('SELECT * FROM interactions ORDER BY seq').all()),
      toolCalls: text(db.prepare('SELECT * FROM tool_calls ORDER BY rowid').all()),
    };
  } finally {
    db.close();
  }
}

describe('the rows the store writes', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-golden-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('are byte-identical to the golden rows, for recorded SDK traffic and every redaction path', async () => {
    const { config } = loadConfig(
      { config: join(packageRoot, 'proxy.config.json') },
      {},
      packageRoot,
    );
    const errors: string[] = [];
    const recorder = startWorkerRecorder(
      { ...config, redact: { ...config.redact, headers: ['x-organization-id'] } },
      { error: (message) => errors.push(message) },
    );
    const cassette = join(folder, 'golden.sqlite');
    await recorder.open(cassette);
    const captured = rounds();
    // In batches of varying size, as the proxy posts them.
    for (const [index, item] of captured.entries()) {
      recorder.record(cassette, item);
      if (index % 7 === 3) await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await recorder.close();
    expect(errors).toEqual([]);
    const rows = storedRows(cassette) as { interactions: unknown[] };
    expect(rows.interactions).toHaveLength(captured.length);
    const text = JSON.stringify(rows, null, 1);
    for (const secret of [agentKey, anthropicKey, googleKey]) expect(text).not.toContain(secret);
    await expect(text).toMatchFileSnapshot('./__snapshots__/stored-rows.golden.json');
  });
});

describe('the store queue', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-queue-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is freed as the worker handles rounds: far more than limits.maxStoreQueueBytes in all is recorded, none dropped', async () => {
    const errors: string[] = [];
    const recorder = startWorkerRecorder(
      { ...defaultConfig, limits: { ...defaultConfig.limits, maxStoreQueueBytes: 4000 } },
      { error: (message) => errors.push(message) },
    );
    const cassette = join(folder, 'queue.sqlite');
    await recorder.open(cassette);
    const unreachable = { proxyError: { status: 502, message: 'unreachable' } };
    // Three rounds of ~1 KB fit in the queue. Messages are handled in order, so once the cassette
    // is open again every batch before it has been written.
    for (let batch = 0; batch < 6; batch++) {
      for (let index = 0; index < 3; index++)
        recorder.record(
          cassette,
          round('openai-chat', false, undefined, { content: 'x'.repeat(900), extra: unreachable }),
        );
      recorder.release(cassette);
      await recorder.open(cassette);
    }
    await recorder.close();
    expect(errors).toEqual([]);
    expect((storedRows(cassette) as { interactions: unknown[] }).interactions).toHaveLength(18);
  });
});
