import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../logger.js';
import type { ConnectionTracker } from './connection-tracker.js';
import { acceptH2c, type H2cSide } from './accept-h2c.js';
import { closeWhenIdle } from './guard/close-when-idle.js';
import { errorShapeFor } from './guard/error-shape-for.js';
import {
  guardRequestListener,
  guardUpgradeListener,
  type ListenerGuard,
} from './guard/guard-listeners.js';

/** What the proxy's HTTP server hands its requests and upgrades to, and where failures are told. */
export interface GuardedServerOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly connections: ConnectionTracker;
  /** Counts a listener failure (`calltape_listener_failures_total`). */
  listenerFailed(kind: 'request' | 'upgrade'): void;
  onRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * The proxy's HTTP server with its limits set: no input may take the process down (whatever
 * escapes a listener is answered, logged with its code and counted), slow or half-open requests
 * are cut, idle upgraded sockets are freed, and connections are capped.
 */
/** The proxy's server, with the HTTP/2 side it serves on the same port. */
export interface GuardedServer extends Server {
  readonly h2c: H2cSide;
}

export function createGuardedServer(options: GuardedServerOptions): GuardedServer {
  const { config, logger, redactor, connections } = options;
  const failed: ListenerGuard = {
    onFailure: (kind, error, request) => {
      options.listenerFailed(kind);
      logger.error(
        `LISTENER_FAILED: ${kind} ${request.method ?? ''} ${redactor.path(request.url ?? '').slice(0, 200)}: ${(error as Error).stack ?? String(error)}`,
      );
    },
    errorShape: errorShapeFor,
  };
  // Timeouts are enforced on this sweep, so it runs often enough for the shortest one to hold.
  const connectionsCheckingInterval = Math.min(
    30_000,
    Math.max(
      250,
      Math.floor(Math.min(config.timeouts.requestHeadersMs, config.timeouts.requestMs) / 4),
    ),
  );
  const listener = guardRequestListener((request, response) => {
    connections.request(response);
    return options.onRequest(request, response);
  }, failed);
  const server = createServer({ connectionsCheckingInterval }, listener);
  server.on(
    'upgrade',
    guardUpgradeListener((request: IncomingMessage, socket: Duplex, head: Buffer) => {
      connections.upgrade(socket);
      // Until a relay takes the socket over (and arms this again): a handshake that stalls is freed too.
      closeWhenIdle(socket, config.timeouts.webSocketIdleMs);
      options.onUpgrade(request, socket, head);
    }, failed),
  );
  // Idle agent sockets outlive the client pools' own idle timeouts, so a reused socket is never one we just closed.
  server.keepAliveTimeout = config.timeouts.keepAliveMs;
  // Node measures both from a request's first byte, not over keep-alive idle time: a slow or half-open request is cut here.
  server.headersTimeout = config.timeouts.requestHeadersMs;
  server.requestTimeout = Math.max(config.timeouts.requestMs, config.timeouts.requestHeadersMs);
  server.maxConnections = config.limits.maxConnections;
  // HTTP/2 clients (the AWS SDK's Bedrock client) speak h2c to an http:// endpoint; their requests reach the same listener.
  return Object.assign(server, {
    h2c: acceptH2c(server, listener, config.timeouts.requestHeadersMs),
  });
}

/** Listens, rejecting on the server's first error (a port in use) rather than throwing it later. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
