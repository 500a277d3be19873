import type { IncomingMessage, ServerResponse } from 'node:http';
import { adminCookie, presentedToken, tokenMatches } from './admin-auth.js';
import { adminHostAllowed } from './admin-request-checks.js';

/** Sent on every admin answer: the dashboard's address (which may hold `?token=`) never leaves in a `Referer`. */
export const noReferrer = { 'referrer-policy': 'no-referrer' } as const;

const json = (message: string, type: string): string =>
  JSON.stringify({ error: { message, type } });

/** Why a request whose Host names another site is refused. */
export const hostRefusal = (host: string | undefined): string =>
  `calltape: the admin surfaces answer only to a loopback or configured Host (admin.allowedHosts); ${JSON.stringify((host ?? '').slice(0, 100))} is neither`;

/** What the admin checks are given: the token (if any), extra Host names, and the pages a browser opens. */
export interface AdminGateOptions {
  readonly token: string | undefined;
  readonly allowedHosts: readonly string[];
  /** Pages that take `?token=` in their address (moved into a cookie by a redirect). */
  readonly pages: () => readonly string[];
}

/**
 * The checks every admin request passes before it is answered: a Host that names this machine
 * (DNS rebinding), the admin token when one is set, and a page opened with `?token=` redirected
 * to its address without it (the token becomes a cookie scoped to `/calltape`). Returns true
 * when it answered the request itself (refused or redirected); the caller answers otherwise.
 */
export function createAdminGate(
  options: AdminGateOptions,
): (request: IncomingMessage, response: ServerResponse, url: URL) => boolean {
  const { token, allowedHosts } = options;
  return (request, response, url) => {
    const path = url.pathname;
    if (!adminHostAllowed(request.headers.host, allowedHosts, token !== undefined)) {
      response
        .writeHead(421, { 'content-type': 'application/json', ...noReferrer })
        .end(json(hostRefusal(request.headers.host), 'calltape_misdirected'));
      return true;
    }
    if (token !== undefined && !tokenMatches(presentedToken(request), token)) {
      response
        .writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer realm="calltape"',
          ...noReferrer,
        })
        .end(
          json(
            'calltape: this admin surface needs the admin token (Authorization: Bearer <token>, or ?token= in a browser)',
            'calltape_unauthorized',
          ),
        );
      return true;
    }
    const reading = request.method === 'GET' || request.method === 'HEAD';
    const page = path === '/calltape/' || options.pages().includes(path);
    if (reading && (path === '/calltape' || (page && url.searchParams.has('token')))) {
      // The dashboard's relative requests need the trailing slash; a token in the address becomes
      // a cookie scoped to the admin paths and leaves the address (and so every later Referer and history entry).
      const headers: Record<string, string> = {
        location: addressWithoutToken(url),
        'cache-control': 'no-store',
        ...noReferrer,
      };
      if (token !== undefined && url.searchParams.has('token'))
        headers['set-cookie'] =
          `${adminCookie}=${encodeURIComponent(token)}; Path=/calltape; HttpOnly; SameSite=Strict`;
      response.writeHead(path === '/calltape' ? 301 : 303, headers).end();
      return true;
    }
    return false;
  };
}

/** A page's own address with `?token=` removed (other parameters kept). */
function addressWithoutToken(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  params.delete('token');
  const query = params.toString();
  return `${url.pathname === '/calltape' ? '/calltape/' : url.pathname}${query ? `?${query}` : ''}`;
}
