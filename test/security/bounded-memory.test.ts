import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { defaultConfig } from '../../src/config/config.js';
import type { Interaction } from '../../src/trace/trace.js';
import { chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream, type ScriptedResponse } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const running: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of running) await item.close();
});

/** POSTs a chat request with node:http (which never decompresses) and counts the bytes the agent got. */
function post(baseUrl: string, stream: boolean): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      model: 'm',
      stream,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const outgoing = request(
      `${baseUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function recordWith(
  answer: ScriptedResponse,
  limits: Partial<typeof defaultConfig.limits>,
  stream = false,
): Promise<{
  agentBytes: number;
  stored: Interaction[];
  storedBodyBytes: number[];
  metrics: string;
}> {
  const upstream = await startScriptedUpstream([answer]);
  running.push(upstream);
  const cassette = join(temporaryFolder(), 'c.sqlite');
  const proxy = await startTestProxy(upstream.url, {
    cassette,
    mode: 'record',
    limits: { ...defaultConfig.limits, ...limits },
  });
  const { bytes } = await post(proxy.baseUrl, stream);
  const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
  await proxy.close();
  const store = new SqliteStore(cassette, { readonly: true });
  const stored = store.interactions();
  store.close();
  const db = new Database(cassette, { readonly: true });
  const storedBodyBytes = db
    .prepare('SELECT coalesce(length(response_body), 0) FROM interactions ORDER BY seq')
    .pluck()
    .all() as number[];
  db.close();
  return { agentBytes: bytes, stored, storedBodyBytes, metrics };
}

describe('bounded memory while recording', () => {
  it('gzip bomb: the agent gets every compressed byte, decoding stops at limits.maxDecodedBytes, the recording says truncated and why', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from(
          '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"',
        ),
        Buffer.alloc(40_000_000, 0x61),
        Buffer.from('"}}]}'),
      ]),
    );
    const { agentBytes, stored, storedBodyBytes } = await recordWith(
      {
        kind: 'custom',
        handle: (response) =>
          void response
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
            .end(bomb),
      },
      { maxDecodedBytes: 1024 * 1024 },
    );
    expect(agentBytes).toBe(bomb.length);
    expect(stored.map((interaction) => interaction.status)).toEqual(['truncated']);
    expect(stored[0]?.error).toContain('limits.maxDecodedBytes');
    expect(storedBodyBytes).toEqual([0]);
  });

  it('huge stream: past limits.maxResponseBytes capture stops, the agent still gets all of it, the recording is truncated with the reason', async () => {
    const text = 'word '.repeat(3_000);
    const sse = encodeSse(chatCompletionChunks({ text }, seededRandom(1)));
    const { agentBytes, stored, storedBodyBytes } = await recordWith(
      { kind: 'sse', body: sse, split: { seed: 1, maxPiece: 4096 } },
      { maxResponseBytes: 16 * 1024 },
      true,
    );
    expect(agentBytes).toBe(Buffer.byteLength(sse));
    expect(stored.map((interaction) => interaction.status)).toEqual(['truncated']);
    expect(stored[0]?.error).toContain('limits.maxResponseBytes');
    expect(storedBodyBytes[0]).toBeLessThanOrEqual(16 * 1024);
  });

  it('store queue: a round over limits.maxStoreQueueBytes is not queued; it is logged and counted', async () => {
    const { stored, metrics } = await recordWith(
      {
        kind: 'sse',
        body: encodeSse(chatCompletionChunks({ text: 'x'.repeat(4000) }, seededRandom(2))),
      },
      { maxStoreQueueBytes: 1000 },
      true,
    );
    expect(stored).toHaveLength(0);
    expect(metrics).toMatch(/^calltape_store_dropped_total 1$/m);
  });

  it('WebSocket mode: frames past limits.maxResponseBytes are relayed but not kept; the round is recorded truncated', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const deltas = 200;
    server.on('connection', (socket) => {
      socket.on('message', () => {
        for (let index = 0; index < deltas; index++)
          socket.send(
            JSON.stringify({
              type: 'response.output_text.delta',
              sequence_number: index,
              item_id: 'm1',
              output_index: 0,
              content_index: 0,
              delta: 'x'.repeat(500),
            }),
          );
        socket.send(
          JSON.stringify({
            type: 'response.completed',
            sequence_number: deltas,
            response: {
              id: 'resp_1',
              object: 'response',
              status: 'completed',
              model: 'm',
              output: [],
            },
          }),
        );
      });
    });
    const cassette = join(temporaryFolder(), 'ws.sqlite');
    const proxy = await startTestProxy(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      {
        cassette,
        mode: 'record',
        limits: { ...defaultConfig.limits, maxResponseBytes: 16 * 1024 },
      },
    );
    const ws = new ResponsesWS(
      new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 }),
    );
    let received = 0;
    const completed = new Promise<void>((resolve) =>
      ws.on('event', (event) =>
        event.type === 'response.completed' ? resolve() : void received++,
      ),
    );
    ws.send({ type: 'response.create', model: 'm', input: 'hi' } as never);
    await completed;
    ws.close();
    expect(received).toBe(deltas);
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const stored = store.interactions();
    store.close();
    expect(stored.map((interaction) => interaction.status)).toEqual(['truncated']);
    expect(stored[0]?.error).toContain('limits.maxResponseBytes');
  });

  describe('tool-loop rounds (held whole under mock tools)', () => {
    const mockTools = (): typeof defaultConfig.mocks => {
      const folder = temporaryFolder();
      writeFileSync(join(folder, 'm.yaml'), 'mocks: [{ tool: get_weather, result: sunny }]');
      return { ...defaultConfig.mocks, files: [join(folder, 'm.yaml')] };
    };
    const storedRounds = (cassette: string): Interaction[] => {
      const store = new SqliteStore(cassette, { readonly: true });
      const stored = store.interactions();
      store.close();
      return stored;
    };

    it('an endless upstream stream past limits.maxResponseBytes is cut off upstream and answered in the provider error shape, and recorded truncated', async () => {
      const upstream = await startScriptedUpstream([{ kind: 'endless-sse', gapMs: 0 }]);
      running.push(upstream);
      const cassette = join(temporaryFolder(), 'loop.sqlite');
      const proxy = await startTestProxy(upstream.url, {
        cassette,
        mode: 'record',
        mocks: mockTools(),
        limits: { ...defaultConfig.limits, maxResponseBytes: 4096 },
      });
      running.push(proxy);
      const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
      const failure = await client.chat.completions
        .create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect(failure).toMatchObject({
        status: 502,
        code: 'response_too_large',
        type: 'upstream_error',
      });
      expect((failure as Error).message).toContain('limits.maxResponseBytes');
      // The upstream request was torn down, not read on without bound.
      await upstream.received[0]?.closed;
      await proxy.close();
      const [round] = storedRounds(cassette);
      expect(round?.status).toBe('truncated');
      expect(round?.error).toContain('limits.maxResponseBytes');
    });

    it('a compressed upstream answer decoding past limits.maxDecodedBytes is refused in the provider error shape, not decoded whole', async () => {
      const bomb = gzipSync(
        Buffer.concat([
          Buffer.from(
            '{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"',
          ),
          Buffer.alloc(8_000_000, 0x61),
          Buffer.from('"}}]}'),
        ]),
      );
      const upstream = await startScriptedUpstream([
        {
          kind: 'custom',
          handle: (response) =>
            void response
              .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
              .end(bomb),
        },
      ]);
      running.push(upstream);
      const proxy = await startTestProxy(upstream.url, {
        mode: 'record',
        mocks: mockTools(),
        limits: { ...defaultConfig.limits, maxDecodedBytes: 1024 * 1024 },
      });
      running.push(proxy);
      const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
      const failure = await client.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toMatchObject({ status: 502, code: 'response_too_large' });
      expect((failure as Error).message).toContain('limits.maxDecodedBytes');
    });

    it('WebSocket mode: a held turn past limits.maxResponseBytes gets an error event, its upstream socket is closed, and the next turn goes through a fresh one', async () => {
      const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      await once(server, 'listening');
      running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
      const sockets: WebSocket[] = [];
      server.on('connection', (socket) => {
        sockets.push(socket);
        socket.on('message', (data) => {
          const { input } = JSON.parse(data.toString()) as { input: string };
          // 'big' never ends its turn: the deltas alone are past the limit.
          if (input === 'big')
            for (let index = 0; index < 100; index++)
              socket.send(
                JSON.stringify({
                  type: 'response.output_text.delta',
                  sequence_number: index,
                  item_id: 'm1',
                  output_index: 0,
                  content_index: 0,
                  delta: 'x'.repeat(500),
                }),
              );
          else
            socket.send(
              JSON.stringify({
                type: 'response.completed',
                sequence_number: 0,
                response: {
                  id: 'resp_2',
                  object: 'response',
                  status: 'completed',
                  model: 'm',
                  output: [],
                },
              }),
            );
        });
      });
      const proxy = await startTestProxy(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        {
          mode: 'record',
          mocks: mockTools(),
          limits: { ...defaultConfig.limits, maxResponseBytes: 16 * 1024 },
        },
      );
      running.push(proxy);
      const ws = new ResponsesWS(
        new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 }),
      );
      const failed = new Promise<unknown>((resolve) =>
        ws.on('error', (error) => resolve((error as { error?: unknown }).error)),
      );
      ws.send({ type: 'response.create', model: 'm', input: 'big' } as never);
      expect(await failed).toMatchObject({
        type: 'error',
        status: 502,
        error: { code: 'response_too_large' },
      });
      const first = sockets[0];
      if (first && first.readyState !== first.CLOSED) await once(first, 'close');
      const completed = new Promise<void>((resolve) =>
        ws.on('response.completed', () => resolve()),
      );
      ws.send({ type: 'response.create', model: 'm', input: 'small' } as never);
      await completed;
      expect(sockets).toHaveLength(2);
      ws.close();
    });
  });
});
