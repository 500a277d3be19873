import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { defaultConfig } from '../../src/config/config.js';
import { startTestProxy } from '../support/test-proxy.js';

const running: { close(): Promise<void> }[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const item of running) await item.close();
});

/** Opens a connection and resolves once it is established. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Resolves with what the server wrote before closing the connection. */
function closed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
  });
}

describe('connections', () => {
  it('half-open requests are cut after timeouts.requestHeadersMs with 408', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      timeouts: { ...defaultConfig.timeouts, requestHeadersMs: 1000, requestMs: 1000 },
    });
    running.push(proxy);
    const socket = await open(proxy.port);
    const done = closed(socket);
    socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await done).toMatch(/^HTTP\/1\.1 408/);
  });

  it('holds at most limits.maxConnections agent connections; further ones are closed at once', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      limits: { ...defaultConfig.limits, maxConnections: 2 },
    });
    running.push(proxy);
    await open(proxy.port);
    await open(proxy.port);
    const third = await open(proxy.port);
    const done = closed(third);
    third.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await done).toBe('');
  });

  it('a feed client that never answers a ping is cut (timeouts.webSocketIdleMs)', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      timeouts: { ...defaultConfig.timeouts, webSocketIdleMs: 1000 },
    });
    running.push(proxy);
    const socket = await open(proxy.port);
    const done = closed(socket);
    // A raw socket completes the handshake but never reads frames, so it never sends a pong.
    socket.write(
      'GET /calltape/feed HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(await done).toMatch(/^HTTP\/1\.1 101/);
  });

  // Regression: ws and http-proxy-3 clear the socket timeout when they take an upgraded socket over, so relayed WebSockets were never cut.
  it.each([
    ['the captured Responses WebSocket mode', '/v1/responses'],
    ['a passed-through WebSocket', '/v1/realtime'],
  ])(
    '%s: a relayed client that goes silent is cut (timeouts.webSocketIdleMs), and its upstream socket is closed too',
    async (_name, path) => {
      const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      await once(server, 'listening');
      running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
      const upstreamClosed = new Promise<void>((resolve) =>
        server.on('connection', (socket) => {
          socket.on('close', () => resolve());
          socket.on('message', () =>
            socket.send(
              JSON.stringify({
                type: 'response.completed',
                sequence_number: 0,
                response: {
                  id: 'resp_1',
                  object: 'response',
                  status: 'completed',
                  model: 'm',
                  output: [],
                },
              }),
            ),
          );
        }),
      );
      const proxy = await startTestProxy(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        { mode: 'passthrough', timeouts: { ...defaultConfig.timeouts, webSocketIdleMs: 1000 } },
      );
      running.push(proxy);
      const client = new WebSocket(`${proxy.url.replace('http', 'ws')}${path}`, {
        headers: { authorization: 'Bearer sk-test-key-0123456789abcdef' },
      });
      running.push({ close: async () => void client.terminate() });
      await once(client, 'open');
      const clientClosed = once(client, 'close');
      client.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'hi' }));
      // One round trip goes through, so the upstream socket is open; then the client says nothing more.
      await once(client, 'message');
      await clientClosed;
      await upstreamClosed;
      expect(client.readyState).toBe(WebSocket.CLOSED);
    },
  );
});
