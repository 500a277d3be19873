import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/config.js';
import { rebindingSuspected } from '../live/admin-request-checks.js';
import type { JsonRpcError } from '../mcp/json-rpc.js';
import { mcpErrorBody } from '../mcp/mcp-http-request.js';

/** Answers a Streamable HTTP request with a JSON-RPC error (no id: it answers the HTTP request). */
export function sendMcpError(response: ServerResponse, status: number, error: JsonRpcError): void {
  sendJson(response, status, mcpErrorBody(error));
}

/** Answers with a JSON body, its length given. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, {
      ...headers,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

/**
 * Refuses (403) a browser request that looks like DNS rebinding, where calltape answers as the
 * server (replay, a server only a mocks file declares): MCP servers must, and offline there is
 * no server to do it. True when it answered.
 */
export function refusedAsRebinding(
  request: IncomingMessage,
  response: ServerResponse,
  server: string,
  config: Config,
): boolean {
  const { origin, host } = request.headers;
  if (!rebindingSuspected(origin, host, config.admin.allowedHosts)) return false;
  sendMcpError(response, 403, {
    code: -32600,
    message: `calltape: refused a browser request for ${server} by Host ${host ?? '(none)'} from ${origin ?? ''} (DNS rebinding protection; a name the proxy is reached by belongs in admin.allowedHosts)`,
  });
  return true;
}
