import type { IncomingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus ones the proxy sets itself; never forwarded. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** calltape's own request header naming the session; consumed, never forwarded. */
export const sessionHeader = 'x-calltape-session';
/** calltape's own request header naming the mock sets in force (`banking,shipping`, or `none`); consumed, never forwarded. */
export const mocksHeader = 'x-calltape-mocks';

export type OutgoingHeaders = Record<string, string | string[]>;

/** Headers to send upstream: everything the agent sent (Authorization included) minus hop-by-hop ones. */
export function upstreamRequestHeaders(headers: IncomingHttpHeaders): OutgoingHeaders {
  const dropped = connectionTokens(headers['connection']);
  const result: OutgoingHeaders = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    // HTTP/2 pseudo-headers (`:path`, `:authority`) of an h2c agent are not headers to send on.
    if (value === undefined || hopByHop.has(name) || dropped.has(name) || name.charCodeAt(0) === 58)
      continue;
    // undici sets host and content-length from the target and the buffered body.
    if (
      name === 'host' ||
      name === 'content-length' ||
      name === sessionHeader ||
      name === mocksHeader
    )
      continue;
    result[name] = value;
  }
  return result;
}

/** Headers to send the agent: the upstream's minus hop-by-hop ones; SSE gets `X-Accel-Buffering: no`. */
export function agentResponseHeaders(headers: IncomingHttpHeaders): OutgoingHeaders {
  const dropped = connectionTokens(headers['connection']);
  const result: OutgoingHeaders = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined || hopByHop.has(name) || dropped.has(name)) continue;
    result[name] = value;
  }
  const contentType = headers['content-type'];
  // Tell nginx-style buffers in front of the agent not to hold stream events back.
  if (
    typeof contentType === 'string' &&
    contentType.includes('text/event-stream') &&
    result['x-accel-buffering'] === undefined
  )
    result['x-accel-buffering'] = 'no';
  return result;
}

/** What a `Connection` header naming nothing beyond the hop-by-hop set drops: shared, never built per request. */
const noTokens: ReadonlySet<string> = new Set();

/**
 * The header names a `Connection` header lists (RFC 9110 §7.6.1): the usual `keep-alive` or
 * `close` costs no parsing and no set.
 */
function connectionTokens(value: string | string[] | undefined): ReadonlySet<string> {
  if (value === undefined) return noTokens;
  if (typeof value === 'string' && !value.includes(',')) {
    const token = value.trim().toLowerCase();
    return token === '' || hopByHop.has(token) ? noTokens : new Set([token]);
  }
  const text = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
}
