import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminGate, noReferrer } from '../live/admin-gate.js';
import { combineExtensions, type AdminExtension } from '../live/admin-routes.js';
import { appPagePath } from './app-page.js';
import { createViewApp } from './view-app.js';
import { stagingElsewhereApi } from './view-sections.js';
import type { ViewSources } from './view-api.js';

/** How `calltape view` listens. */
export interface ViewServerOptions extends ViewSources {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The admin token every request must carry; undefined on loopback without one. */
  readonly token: string | undefined;
  /** Surfaces served beside the app and asked first (the Rate, Review, Judges and Staging APIs). */
  readonly sections?: AdminExtension;
}

/** A running view server. */
export interface ViewServer {
  /** The server's origin, e.g. `http://127.0.0.1:4546`. */
  readonly origin: string;
  /** The app's address to open in a browser (with `?token=` when a token is set). */
  readonly appUrl: string;
  close(): Promise<void>;
}

/**
 * Serves calltape view on its own, behind the proxy's admin checks (Host, token, a token in the
 * address moved into a cookie): the app, its assets and its API, nothing else.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const app = combineExtensions(
    stagingElsewhereApi,
    ...(options.sections ? [options.sections] : []),
    createViewApp(options),
  );
  const gate = createAdminGate({
    token: options.token,
    allowedHosts: [],
    pages: () => app.pages,
  });
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://calltape');
    if (url.pathname === '/' || url.pathname === '/calltape' || url.pathname === '/calltape/') {
      // The bare address leads to the app; a token given there is carried along to the page.
      response.writeHead(302, { location: `${appPagePath}${url.search}`, ...noReferrer }).end();
      return;
    }
    if (gate(request, response, url)) return;
    try {
      if (app.handle(request, response, url)) return;
      response
        .writeHead(404, { 'content-type': 'application/json', ...noReferrer })
        .end(JSON.stringify({ error: { message: 'calltape: no such path', type: 'not_found' } }));
    } catch (error) {
      response
        .writeHead(500, { 'content-type': 'application/json', ...noReferrer })
        .end(
          JSON.stringify({ error: { message: (error as Error).message, type: 'calltape_error' } }),
        );
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    appUrl: `${origin}${appPagePath}${options.token === undefined ? '' : `?token=${encodeURIComponent(options.token)}`}`,
    close: () =>
      new Promise<void>((resolve) => {
        app.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
