import type { ServerResponse } from 'node:http';
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
