import { defaultConfig } from '../../src/config/config.js';
import { existsSync, readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { createLogger } from '../../src/logger.js';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import {
  startScriptedUpstream,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { startTestProxy } from '../support/test-proxy.js';

const apiKey = 'sk-test-SECRETSECRETSECRET0123456789';
const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      parameters: { type: 'object', properties: { tz: { type: 'string' } } },
    },
  },
];
const parallel: ScriptedTurn = {
  text: 'Checking.',
  toolCalls: [
    {
      id: 'call_w',
      name: 'get_weather',
      arguments: '{"city":"Zürich 🌧","note":"a \\"quoted\\" word"}',
    },
    { id: 'call_t', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
  ],
  interleave: true,
};

let upstream: ScriptedUpstream;
let proxy: Awaited<ReturnType<typeof startTestProxy>>;
let client: OpenAI;

beforeEach(async () => {
  upstream = await startScriptedUpstream();
  proxy = await startTestProxy(upstream.url);
  client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
});

afterEach(async () => {
  await proxy.close();
  await upstream.close();
});

function storedCalls(): ReturnType<SqliteStore['toolCalls']> {
  const store = new SqliteStore(proxy.config.cassette, { readonly: true });
  try {
    return store.toolCalls();
  } finally {
    store.close();
  }
}

describe('POST /v1/chat/completions through the proxy (official openai client)', () => {
  it('returns a non-streamed completion as received and captures its tool calls', async () => {
    upstream.setScript([
      {
        kind: 'json',
        body: chatCompletion(parallel),
        headers: { 'x-ratelimit-remaining-requests': '99' },
      },
    ]);
    const { data, response } = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Weather and time?' }],
        tools,
      })
      .withResponse();
    expect(data).toEqual(chatCompletion(parallel));
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    expect(upstream.received[0]?.headers['authorization']).toBe(`Bearer ${apiKey}`);
    expect(upstream.received[0]?.url).toBe('/v1/chat/completions');
    await proxy.close();
    expect(
      storedCalls().map((call) => [
        call.name,
        JSON.parse(call.argumentsJson ?? 'null'),
        call.complete,
        call.status,
      ]),
    ).toEqual([
      ['get_weather', { city: 'Zürich 🌧', note: 'a "quoted" word' }, true, 'complete'],
      ['get_time', { tz: 'Asia/Tokyo' }, true, 'complete'],
    ]);
  });

  it('streams chunk by chunk (split at random byte positions) and reassembles interleaved parallel calls', async () => {
    const body = encodeSse(chatCompletionChunks(parallel, seededRandom(7), { includeUsage: true }));
    upstream.setScript([{ kind: 'sse', body, split: { seed: 11, maxPiece: 9 } }]);
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather and time?' }],
      tools,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(
      final.choices[0]?.message.tool_calls?.map((call) =>
        call.type === 'function' ? [call.id, call.function.name, call.function.arguments] : [],
      ),
    ).toEqual([
      ['call_w', 'get_weather', parallel.toolCalls?.[0]?.arguments],
      ['call_t', 'get_time', parallel.toolCalls?.[1]?.arguments],
    ]);
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    const [interaction] = store.interactions();
    store.close();
    expect(interaction?.status).toBe('complete');
    expect(interaction?.request.tools.map((tool) => tool.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(interaction?.response?.output.toolCalls.map((call) => call.arguments)).toEqual([
      { ok: true, value: { city: 'Zürich 🌧', note: 'a "quoted" word' } },
      { ok: true, value: { tz: 'Asia/Tokyo' } },
    ]);
    expect(interaction?.response?.usage?.totalTokens).toBe(59);
    expect(interaction?.timing.firstByteMs).toBeGreaterThan(0);
  });

  it('forwards the SSE bytes unchanged, event: lines and error frames included', async () => {
    const body =
      'event: ping\ndata: {}\n\n' +
      encodeSse(chatCompletionChunks({ text: 'hi', finishReason: null }, seededRandom(1))) +
      'event: error\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n';
    upstream.setScript([{ kind: 'sse', body }]);
    const response = await fetch(`${proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [] }),
    });
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe(body);
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    const [interaction] = store.interactions();
    store.close();
    expect(interaction?.status).toBe('upstream-error');
    expect(interaction?.error).toBe('overloaded');
  });

  it('forwards a gzip-compressed body as-is while capturing from a decompressed copy', async () => {
    upstream.setScript([{ kind: 'json', body: chatCompletion(parallel), gzip: true }]);
    const response = await fetch(`${proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }),
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.json()).toEqual(chatCompletion(parallel));
    await proxy.close();
    expect(storedCalls().map((call) => call.name)).toEqual(['get_weather', 'get_time']);
  });

  it('records a stream cut by the upstream as truncated, its partial calls flagged incomplete', async () => {
    const full = encodeSse(chatCompletionChunks(parallel, seededRandom(3)));
    upstream.setScript([
      { kind: 'sse', body: full.slice(0, Math.floor(full.length * 0.7)), breakAfter: true },
    ]);
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      tools,
    });
    await expect(stream.finalChatCompletion()).rejects.toThrow();
    await proxy.close();
    const calls = storedCalls();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => !call.complete && call.status === 'truncated')).toBe(true);
  });

  it('aborts the upstream request when the agent disconnects mid-stream', async () => {
    upstream.setScript([{ kind: 'endless-sse', gapMs: 5 }]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true },
      { signal: controller.signal },
    );
    let events = 0;
    const abortedAt = await (async () => {
      try {
        for await (const _event of stream) if (++events === 3) controller.abort();
      } catch {
        // The SDK raises APIUserAbortError.
      }
      return performance.now();
    })();
    const upstreamClosedAt = await upstream.received[0]?.closed;
    expect(upstreamClosedAt).toBeDefined();
    console.info(
      `upstream saw the disconnect ${((upstreamClosedAt ?? 0) - abortedAt).toFixed(1)} ms after the agent aborted`,
    );
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    expect(store.interactions()[0]?.status).toBe('aborted');
    store.close();
  });

  it('passes other /v1 routes through untouched', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-4o-mini']);
    expect(upstream.received[0]?.headers['authorization']).toBe(`Bearer ${apiKey}`);
  });

  it('attributes sessions from the /s/<id> prefix and the x-calltape-session header, and never forwards either', async () => {
    upstream.setScript(() => ({
      kind: 'json',
      body: chatCompletion({ toolCalls: [{ name: 'get_weather', arguments: '{}' }] }),
    }));
    const prefixed = new OpenAI({ apiKey, baseURL: `${proxy.url}/s/case-7/v1`, maxRetries: 0 });
    await prefixed.chat.completions.create({ model: 'm', messages: [] });
    await client.chat.completions.create(
      { model: 'm', messages: [] },
      { headers: { 'x-calltape-session': 'run 42' } },
    );
    await client.chat.completions.create({ model: 'm', messages: [] });
    expect(
      upstream.received.map((request) => [request.url, request.headers['x-calltape-session']]),
    ).toEqual([
      ['/v1/chat/completions', undefined],
      ['/v1/chat/completions', undefined],
      ['/v1/chat/completions', undefined],
    ]);
    await proxy.close();
    const sessions = storedCalls().map((call) => call.sessionId);
    expect(sessions.slice(0, 2)).toEqual(['case-7', 'run 42']);
    expect(sessions[2]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never writes secrets to the store: secret headers dropped, configured body patterns redacted', async () => {
    await proxy.close();
    proxy = await startTestProxy(upstream.url, {
      redact: {
        ...defaultConfig.redact,
        headers: ['x-org-token'],
        bodyPatterns: [{ pattern: 'sk-[A-Za-z0-9_-]{20,}', flags: '', replacement: '[KEY]' }],
      },
    });
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    upstream.setScript([
      {
        kind: 'json',
        body: chatCompletion(parallel),
        headers: { 'set-cookie': '__cf_bm=COOKIESECRET; path=/' },
      },
    ]);
    await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `my key is ${apiKey}` }] },
      {
        headers: {
          'x-api-key': 'XAPIKEYSECRET',
          'api-key': 'AZUREKEYSECRET',
          cookie: 'session=COOKIESECRET2',
          'x-org-token': 'ORGTOKENSECRET',
        },
      },
    );
    expect(upstream.received[0]?.body).toContain(apiKey);
    await proxy.close();
    const files = [proxy.config.cassette, `${proxy.config.cassette}-wal`].filter((file) =>
      existsSync(file),
    );
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    for (const secret of [
      apiKey,
      'SECRETSECRETSECRET',
      'XAPIKEYSECRET',
      'AZUREKEYSECRET',
      'COOKIESECRET',
      'COOKIESECRET2',
      'ORGTOKENSECRET',
      'Bearer',
    ])
      expect(bytes.includes(secret), secret).toBe(false);
    // The agent's own key is replaced by the credential marker before any pattern sees it.
    expect(bytes.includes('my key is [REDACTED:credential]')).toBe(true);
    expect(storedCalls()).toHaveLength(2);
  });
});

describe('bad input and upstream failures', () => {
  it('answers malformed JSON with 400 in OpenAI error shape', async () => {
    const response = await fetch(`${proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model": "gpt-4o-mini", "messages": [',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { message: string; type: string; code: string };
    };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.message).toMatch(/not valid JSON/);
    expect(upstream.received).toHaveLength(0);
  });

  it('answers a body over the limit with 413, and the SDK raises', async () => {
    await proxy.close();
    proxy = await startTestProxy(upstream.url, {
      limits: { ...defaultConfig.limits, maxBodyBytes: 2048 },
    });
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(10_000) }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toMatch(
      /exceeds the limit of 2048 bytes/,
    );
    expect(upstream.received).toHaveLength(0);
    // The proxy keeps serving.
    upstream.setScript([{ kind: 'json', body: chatCompletion({ text: 'ok' }) }]);
    expect(
      (await client.chat.completions.create({ model: 'm', messages: [] })).choices[0]?.message
        .content,
    ).toBe('ok');
  });

  it('answers 502 naming the upstream when it is unreachable', async () => {
    await proxy.close();
    proxy = await startTestProxy('http://127.0.0.1:1');
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/could not reach the upstream http:\/\/127\.0\.0\.1:1/);
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    expect(store.interactions()[0]).toMatchObject({ status: 'proxy-error', httpStatus: 502 });
    store.close();
  });

  it('answers 504 when the upstream sends no headers in time', async () => {
    await proxy.close();
    proxy = await startTestProxy(upstream.url, {
      timeouts: { ...proxy.config.timeouts, upstreamHeadersMs: 200 },
    });
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    upstream.setScript([{ kind: 'hang' }]);
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/sent no response within 200 ms/);
  });

  it('passes upstream error statuses through unchanged and records them', async () => {
    const rateLimited = {
      error: {
        message: 'Rate limit reached for gpt-4o-mini',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    };
    upstream.setScript([
      {
        kind: 'json',
        status: 429,
        body: rateLimited,
        headers: { 'retry-after': '2', 'x-ratelimit-reset-requests': '2s' },
      },
    ]);
    const response = await fetch(`${proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('x-ratelimit-reset-requests')).toBe('2s');
    expect(await response.json()).toEqual(rateLimited);
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    expect(store.interactions()[0]).toMatchObject({
      status: 'upstream-error',
      httpStatus: 429,
      error: 'HTTP 429: Rate limit reached for gpt-4o-mini',
    });
    store.close();
  });

  it('joins a path prefix in the upstream URL in front of request paths', async () => {
    await proxy.close();
    proxy = await startTestProxy(`${upstream.url}/openai/`);
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    upstream.setScript([{ kind: 'json', body: chatCompletion({ text: 'ok' }) }]);
    await client.chat.completions.create({ model: 'm', messages: [] });
    await client.models.list().catch(() => undefined);
    expect(upstream.received.map((request) => request.url)).toEqual([
      '/openai/v1/chat/completions',
      '/openai/v1/models',
    ]);
  });

  it('answers a malformed session id with 400 and keeps serving', async () => {
    const response = await fetch(`${proxy.url}/s/%E0%A4%A/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /session id/,
    );
    expect(upstream.received).toHaveLength(0);
  });

  it('survives an agent that disconnects halfway through sending its body', async () => {
    const { connect } = await import('node:net');
    const socket = connect(proxy.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    upstream.setScript([{ kind: 'json', body: chatCompletion({ text: 'still here' }) }]);
    expect(
      (await client.chat.completions.create({ model: 'm', messages: [] })).choices[0]?.message
        .content,
    ).toBe('still here');
    expect(upstream.received).toHaveLength(1);
  });

  it('cuts a stream only after upstreamBodyMs of silence (default one hour)', async () => {
    const gapped: ScriptedResponse = {
      kind: 'custom',
      async handle(response) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          encodeSse(
            chatCompletionChunks({ text: 'thinking', finishReason: null }, seededRandom(1)),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        response.end(
          encodeSse([
            {
              id: 'x',
              object: 'chat.completion.chunk',
              created: 0,
              model: 'm',
              choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
            },
            '[DONE]',
          ]),
        );
      },
    };
    upstream.setScript([gapped]);
    const patient = await client.chat.completions
      .stream({ model: 'm', messages: [] })
      .finalChatCompletion();
    expect(patient.choices[0]?.message.content).toBe('thinking');

    await proxy.close();
    proxy = await startTestProxy(upstream.url, {
      timeouts: { ...proxy.config.timeouts, upstreamBodyMs: 1_000 },
    });
    client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    upstream.setScript([gapped]);
    await expect(
      client.chat.completions.stream({ model: 'm', messages: [] }).finalChatCompletion(),
    ).rejects.toThrow();
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    expect(store.interactions()[0]?.status).toBe('truncated');
    store.close();
  });

  it('keeps credentials in query strings out of the store and the logs', async () => {
    await proxy.close();
    const lines: string[] = [];
    proxy = await startTestProxy(
      upstream.url,
      { logLevel: 'debug' },
      { logger: createLogger('debug', (line) => lines.push(line)) },
    );
    upstream.setScript([{ kind: 'json', body: chatCompletion({ text: 'ok' }) }]);
    await fetch(`${proxy.baseUrl}/chat/completions?api-version=1&key=QUERYSECRET`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: '{"model":"m","messages":[]}',
    });
    expect(upstream.received[0]?.url).toBe('/v1/chat/completions?api-version=1&key=QUERYSECRET');
    await proxy.close();
    const store = new SqliteStore(proxy.config.cassette, { readonly: true });
    expect(store.interactions()[0]?.path).toBe('/v1/chat/completions?api-version=1&key=REDACTED');
    store.close();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toMatch(/QUERYSECRET|SECRETSECRET/);
  });

  it('answers GET /healthz with 200', async () => {
    const response = await fetch(`${proxy.url}/healthz`);
    expect(response.status).toBe(200);
  });
});
