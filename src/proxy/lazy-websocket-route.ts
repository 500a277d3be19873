import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Where } from './route-types.js';
import type { WebSocketRoute, WebSocketRouteOptions } from './websocket-route.js';

/**
 * The Responses API over WebSocket, loaded at its first upgrade: a proxy whose agents speak HTTP
 * never loads the WebSocket library and the route's code. The socket waits meanwhile (the
 * upgrade is answered once the route has it); a failure there destroys it, as the upgrade listener's
 * guard would have.
 */
export class LazyWebSocketRoute {
  private route: Promise<WebSocketRoute> | undefined;

  constructor(private readonly options: WebSocketRouteOptions) {}

  handle(request: IncomingMessage, socket: Duplex, head: Buffer, where: Where): void {
    this.route ??= import('./websocket-route.js').then(
      ({ WebSocketRoute }) => new WebSocketRoute(this.options),
    );
    this.route
      .then((route) => route.handle(request, socket, head, where))
      .catch((error: unknown) => socket.destroy(error as Error));
  }
}
