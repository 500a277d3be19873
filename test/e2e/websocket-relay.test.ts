import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startTestProxy } from '../support/test-proxy.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A WebSocket upstream: records what arrives and answers each message with its events, in order. */
async function wsUpstream(answer: (message: string) => string[]): Promise<{ url: string; received: { path: string; headers: Record<string, unknown>; messages: string[] }[] }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const received: { path: string; headers: Record<string, unknown>; messages: string[] }[] = [];
  server.on('connection', (socket, request) => {
    const entry = { path: request.url ?? '', headers: request.headers as Record<string, unknown>, messages: [] as string[] };
    received.push(entry);
    socket.on('message', (data) => {
      entry.messages.push(data.toString());
      for (const reply of answer(data.toString())) socket.send(reply);
    });
  });
  cleanups.push(() => new Promise<void>((resolve) => {
    for (const client of server.clients) client.terminate();
    server.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('WebSocket upgrades', () => {
  it("relays the OpenAI SDK's Responses WebSocket mode both ways, in order, under a session prefix", async () => {
    const upstream = await wsUpstream((message) => {
      const event = JSON.parse(message) as { type: string; model?: string };
      return ['response.created', 'response.output_text.delta', 'response.completed'].map((type, index) => JSON.stringify({ type, sequence_number: index, response: { id: 'resp_ws', object: 'response', status: 'completed', model: event.model, output: [] }, delta: 'hi' }));
    });
    const proxy = await startTestProxy(upstream.url, { mode: 'record' });
    cleanups.push(() => proxy.close());
    const client = new OpenAI({ apiKey: 'sk-test-key-0123456789abcdef', baseURL: `${proxy.url}/s/ws-session/v1`, maxRetries: 0 });
    const ws = new ResponsesWS(client);
    cleanups.push(() => ws.close());
    const types: string[] = [];
    const done = new Promise<void>((resolve) => {
      ws.on('event', (event) => {
        types.push(event.type);
        if (event.type === 'response.completed') resolve();
      });
    });
    ws.send({ type: 'response.create', model: 'gpt-4.1-mini', input: 'hello' } as never);
    await done;
    expect(types).toEqual(['response.created', 'response.output_text.delta', 'response.completed']);
    expect(upstream.received[0]?.path).toBe('/v1/responses');
    expect(upstream.received[0]?.headers['authorization']).toBe('Bearer sk-test-key-0123456789abcdef');
    expect(upstream.received[0]?.headers['x-calltape-session']).toBeUndefined();
    expect(JSON.parse(upstream.received[0]?.messages[0] ?? '{}')).toMatchObject({ type: 'response.create', model: 'gpt-4.1-mini' });
  });

  it('relays any other upgrade under /v1/, and refuses upgrades replay cannot answer', async () => {
    const upstream = await wsUpstream((message) => [`echo:${message}`]);
    const proxy = await startTestProxy(upstream.url, { mode: 'record' });
    cleanups.push(() => proxy.close());
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/realtime?model=x`);
    cleanups.push(() => socket.terminate());
    await once(socket, 'open');
    const replies: string[] = [];
    const three = new Promise<void>((resolve) => socket.on('message', (data) => replies.push(data.toString()) === 3 && resolve()));
    for (const text of ['a', 'b', 'c']) socket.send(text);
    await three;
    expect(replies).toEqual(['echo:a', 'echo:b', 'echo:c']);
    expect(upstream.received[0]?.path).toBe('/v1/realtime?model=x');

    const replayer = await startTestProxy('http://127.0.0.1:1', { mode: 'replay', cassette: proxy.config.cassette });
    cleanups.push(() => replayer.close());
    const refused = new WebSocket(`${replayer.url.replace('http', 'ws')}/v1/responses`);
    refused.on('error', () => undefined);
    const [, response] = (await once(refused, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(404);
    refused.terminate();
  });
});
