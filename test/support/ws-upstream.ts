import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** What a WebSocket upstream connection received: its path, handshake headers and messages in order. */
export interface WsConnection {
  readonly path: string;
  readonly headers: Record<string, unknown>;
  readonly messages: string[];
}

/** A WebSocket upstream on an OS-chosen loopback port: records what arrives and answers each message with `answer`'s frames, in order. */
export async function startWsUpstream(
  answer: (message: string) => string[],
): Promise<{ readonly url: string; readonly received: WsConnection[]; close(): Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const received: WsConnection[] = [];
  server.on('connection', (socket, request) => {
    const entry: WsConnection = {
      path: request.url ?? '',
      headers: request.headers as Record<string, unknown>,
      messages: [],
    };
    received.push(entry);
    socket.on('message', (data) => {
      entry.messages.push(data.toString());
      for (const reply of answer(data.toString())) socket.send(reply);
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
