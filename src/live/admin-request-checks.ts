import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { isLoopbackHost } from './admin-auth.js';

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower-cased; undefined when absent or malformed. */
export function hostNameOf(header: string | undefined): string | undefined {
  if (header === undefined || header.length === 0 || header.length > 255) return undefined;
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(header);
  if (bracketed) return bracketed[1]?.toLowerCase();
  const plain = /^([a-z0-9.-]+)(?::\d{1,5})?$/i.exec(header);
  return plain?.[1]?.toLowerCase();
}

/**
 * Whether an admin request's `Host` names this proxy rather than some other site. DNS rebinding
 * points a web page's own domain at 127.0.0.1, so the page's requests carry that domain as
 * `Host`: only loopback names, IP literals (which no rebinding can produce) and names the user
 * configured are accepted. With an admin token and no configured names, the token is the guard.
 */
export function adminHostAllowed(
  header: string | undefined,
  allowedHosts: readonly string[],
  tokenSet: boolean,
): boolean {
  const name = hostNameOf(header);
  if (name === undefined) return false;
  if (isLoopbackHost(name) || isIP(name) !== 0) return true;
  if (allowedHosts.length === 0) return tokenSet;
  return allowedHosts.some((allowed) => allowed.toLowerCase() === name);
}

/**
 * Whether a WebSocket upgrade's `Origin` is the proxy's own page. Browsers always send `Origin`
 * on WebSocket upgrades and let any page open one to any address, so a foreign origin is
 * refused; clients that are not browsers send none.
 */
export function feedOriginAllowed(
  origin: string | undefined,
  hostHeader: string | undefined,
): boolean {
  if (origin === undefined) return true;
  if (hostHeader === undefined) return false;
  try {
    const parsed = new URL(origin);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.host.toLowerCase() === hostHeader.toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * Whether an admin write (a POST) may be taken: JSON, from no page of another origin. A foreign
 * page can send a form or `text/plain` anywhere, but JSON only after a CORS preflight, which the
 * proxy never answers.
 */
export function adminWriteAllowed(headers: IncomingHttpHeaders): boolean {
  return (
    feedOriginAllowed(headers.origin, headers.host) &&
    /^application\/json\b/i.test(headers['content-type'] ?? '')
  );
}

/**
 * Whether a request that calltape answers itself, standing in for a server (an MCP server in
 * replay or known only from a mocks file), looks like DNS rebinding: a browser (it sent `Origin`)
 * reaching the proxy by a name that is not loopback, an IP address or in `admin.allowedHosts`,
 * or from a page of another origin. MCP servers must refuse those; in record mode the real
 * server decides. Clients that are not browsers send no `Origin` and are never refused.
 */
export function rebindingSuspected(
  origin: string | undefined,
  hostHeader: string | undefined,
  allowedHosts: readonly string[],
): boolean {
  if (origin === undefined) return false;
  return (
    !adminHostAllowed(hostHeader, allowedHosts, false) || !feedOriginAllowed(origin, hostHeader)
  );
}
