import type { IncomingMessage } from 'node:http';
import { conformanceMcpServer } from './conformance-mcp-server.js';
import { hostMcpOverHttp, type McpHttpHost } from './mcp-http-host.js';

const localHostnames = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a Host or Origin value names this machine (any port): DNS rebinding protection. */
function local(value: string | undefined, origin: boolean): boolean {
  if (value === undefined) return origin; // a request without Origin is not from a browser
  try {
    return localHostnames.has(new URL(origin ? value : `http://${value}`).hostname);
  } catch {
    return false;
  }
}

const allowed = (request: IncomingMessage) =>
  local(request.headers.host, false) && local(request.headers.origin, true);

/**
 * The conformance target over Streamable HTTP on a loopback port, refusing (403) a request whose
 * Host or Origin is not this machine, as the `dns-rebinding-protection` scenario requires of a
 * localhost server. Any port is local, so a relay's own Origin passes.
 */
export function startConformanceHttpServer(): Promise<McpHttpHost> {
  return hostMcpOverHttp(conformanceMcpServer, (request, response) => {
    if (allowed(request)) return false;
    response
      .writeHead(403, { 'content-type': 'application/json' })
      .end(
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"forbidden host or origin"}}',
      );
    return true;
  });
}
