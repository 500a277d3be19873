import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { presentedToken, tokenMatches } from './admin-auth.js';
import { createAdminGate, hostRefusal, noReferrer } from './admin-gate.js';
import { adminHostAllowed, feedOriginAllowed } from './admin-request-checks.js';
import { redirectOldPage } from './old-page-redirects.js';
import type { Feed } from './feed.js';
import type { LiveMetrics } from './live-metrics.js';
import { feedPath, stagingApi, stagingLive, type StagingLive } from './staging-state.js';

export interface AdminRoutes {
  /** Answers `/metrics` and `/calltape/…`; false when the path is not an admin one. */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** Takes a WebSocket upgrade to `/calltape/feed`; false when the path is another. */
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
}

/**
 * An admin surface beside the built-in ones (the rating page), answered after the Host and token
 * checks. It checks its own methods: it may take writes, which the built-in surfaces never do.
 */
export interface AdminExtension {
  /** Answers the request when `url`'s path is one of its own; false otherwise. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): boolean;
  /** Pages it serves, which take `?token=` in the address the way the dashboard does. */
  readonly pages: readonly string[];
  close(): void;
}

/** Several extensions as one: each is asked in turn, and all are closed. */
export function combineExtensions(...extensions: readonly AdminExtension[]): AdminExtension {
  return {
    pages: extensions.flatMap((extension) => extension.pages),
    handle: (request, response, url) =>
      extensions.some((extension) => extension.handle(request, response, url)),
    close() {
      for (const extension of extensions) extension.close();
    },
  };
}

const json = (message: string, type: string): string =>
  JSON.stringify({ error: { message, type } });

export { noReferrer };

const rawAnswer = (status: string, body: string, extra = ''): string =>
  `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\n${extra}referrer-policy: no-referrer\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/**
 * The admin surfaces: `GET /metrics`, `/calltape/` leading to the app (its Staging section is
 * the shadow dashboard), the staging state (also at its first path `/calltape/api/state`) and
 * the feed at `/calltape/feed`. With a token, each one requires it.
 */
export function createAdminRoutes(
  token: string | undefined,
  metrics: LiveMetrics,
  feed: Feed,
  state: () => Omit<StagingLive, 'available' | 'feed' | 'metrics'>,
  allowedHosts: readonly string[] = [],
  extension?: AdminExtension,
): AdminRoutes {
  const authorized = (request: IncomingMessage): boolean =>
    token === undefined || tokenMatches(presentedToken(request), token);
  const hostAllowed = (request: IncomingMessage): boolean =>
    adminHostAllowed(request.headers.host, allowedHosts, token !== undefined);
  const gate = createAdminGate({
    token,
    allowedHosts,
    pages: () => extension?.pages ?? [],
  });
  return {
    handle(request, response) {
      // Every request passes here first: a prefix test, so agent traffic pays no URL parse.
      const raw = request.url ?? '/';
      if (!raw.startsWith('/metrics') && !raw.startsWith('/calltape')) return false;
      const url = new URL(raw, 'http://calltape');
      const path = url.pathname;
      if (path !== '/metrics' && path !== '/calltape' && !path.startsWith('/calltape/'))
        return false;
      if (gate(request, response, url)) return true;
      const reading = request.method === 'GET' || request.method === 'HEAD';
      if (reading && (path === stagingApi || path === '/calltape/api/state')) {
        // Before the extensions: the app's API answers every other /calltape/api/v1/ path.
        // /api/state is the first dashboard's name for the same answer.
        response
          .writeHead(200, {
            'content-type': 'application/json',
            'cache-control': 'no-store',
            ...noReferrer,
          })
          .end(JSON.stringify(stagingLive(state())));
        return true;
      }
      if (extension?.handle(request, response, url) === true) return true;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response
          .writeHead(405, { allow: 'GET', 'content-type': 'application/json', ...noReferrer })
          .end(json('calltape: admin surfaces answer GET only', 'invalid_request_error'));
        return true;
      }
      if (path === '/metrics') {
        metrics.registry.metrics().then(
          (text) =>
            response
              .writeHead(200, { 'content-type': metrics.registry.contentType, ...noReferrer })
              .end(text),
          (error: unknown) =>
            response
              .writeHead(500, { 'content-type': 'text/plain' })
              .end(`calltape: metrics failed: ${(error as Error).message}`),
        );
      } else if (redirectOldPage(response, url)) {
        // The first pages' addresses lead into the app.
      } else {
        response
          .writeHead(404, { 'content-type': 'application/json', ...noReferrer })
          .end(json('calltape: no such admin path', 'invalid_request_error'));
      }
      return true;
    },
    upgrade(request, socket, head) {
      const raw = request.url ?? '/';
      if (!raw.startsWith(feedPath) || new URL(raw, 'http://calltape').pathname !== feedPath)
        return false;
      if (!hostAllowed(request)) {
        socket.end(
          rawAnswer(
            '421 Misdirected Request',
            json(hostRefusal(request.headers.host), 'calltape_misdirected'),
          ),
        );
        return true;
      }
      if (!feedOriginAllowed(request.headers.origin, request.headers.host)) {
        socket.end(
          rawAnswer(
            '403 Forbidden',
            json(
              "calltape: the feed accepts WebSocket connections from the dashboard's own origin only",
              'calltape_forbidden_origin',
            ),
          ),
        );
        return true;
      }
      if (authorized(request)) {
        feed.accept(request, socket, head);
        return true;
      }
      const body = json(
        'calltape: the feed needs the admin token (?token= or Authorization: Bearer)',
        'calltape_unauthorized',
      );
      socket.end(
        rawAnswer('401 Unauthorized', body, 'www-authenticate: Bearer realm="calltape"\r\n'),
      );
      return true;
    },
  };
}
