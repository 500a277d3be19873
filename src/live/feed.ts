import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { feedFilterOf, matchesFilter, type FeedEvent, type FeedFilter } from './feed-events.js';

/** Bytes a client may leave unread before it is dropped. */
const maxBufferedBytes = 1024 * 1024;

/**
 * The live feed at `/calltape/feed`: every event goes to every connected client whose filter it
 * passes (`?session=`, `?tool=`, `?verdict=`, `?type=a,b`). A client that reads too slowly is
 * disconnected (code 1008) and counted; the proxy never waits for one.
 */
export class Feed {
  /** Made at the first client: a proxy nobody watches never loads the WebSocket library for it. */
  private server: Promise<WebSocketServer> | undefined;
  private readonly clients = new Map<WebSocket, FeedFilter>();
  /** Clients that answered the last ping; the others are gone (half-open) and are cut at the next one. */
  private readonly alive = new WeakSet<WebSocket>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly onCount: (clients: number) => void,
    private readonly onDropped: () => void,
    idleMs = 300_000,
  ) {
    this.heartbeat = setInterval(() => this.ping(), Math.max(500, Math.floor(idleMs / 2)));
    this.heartbeat.unref();
  }

  private ping(): void {
    for (const client of this.clients.keys()) {
      if (!this.alive.has(client)) {
        client.terminate();
        continue;
      }
      this.alive.delete(client);
      client.ping();
    }
  }

  get size(): number {
    return this.clients.size;
  }

  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const filter = feedFilterOf(new URL(request.url ?? '/', 'http://calltape').searchParams);
    this.server ??= import('ws').then(
      ({ WebSocketServer }) =>
        new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 4096 }),
    );
    this.server
      .then((server) => this.upgrade(server, request, socket, head, filter))
      .catch((error: unknown) => socket.destroy(error as Error));
  }

  private upgrade(
    server: WebSocketServer,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    filter: FeedFilter,
  ): void {
    server.handleUpgrade(request, socket, head, (client) => {
      this.clients.set(client, filter);
      this.alive.add(client);
      client.on('pong', () => this.alive.add(client));
      this.onCount(this.clients.size);
      client.on('close', () => {
        this.clients.delete(client);
        this.onCount(this.clients.size);
      });
      client.on('error', () => client.terminate());
      client.send(JSON.stringify({ type: 'hello', at: Date.now() }));
    });
  }

  publish(event: FeedEvent): void {
    if (this.clients.size === 0) return;
    let text: string | undefined;
    for (const [client, filter] of this.clients) {
      if (client.readyState !== client.OPEN || !matchesFilter(event, filter)) continue;
      if (client.bufferedAmount > maxBufferedBytes) {
        this.clients.delete(client);
        this.onDropped();
        this.onCount(this.clients.size);
        client.close(1008, 'calltape: the feed client reads too slowly');
        // A client that does not read will not read the close frame either.
        setTimeout(() => client.terminate(), 1000).unref();
        continue;
      }
      client.send((text ??= JSON.stringify(event)));
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients.keys()) client.terminate();
    this.clients.clear();
    void this.server?.then((server) => server.close());
  }
}
