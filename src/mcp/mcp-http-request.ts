import {
  classifyMessage,
  responseMessage,
  type JsonRpcError,
  type JsonRpcMessage,
} from './json-rpc.js';
import { mcpSubject } from './mcp-request.js';

/** A POST body of the Streamable HTTP transport: one message, or (before 2025-06-18) a batch. */
export interface McpPost {
  readonly messages: readonly JsonRpcMessage[];
  readonly batch: boolean;
}

/** Parses a POST body; undefined when it is not JSON at all. */
export function parseMcpPost(body: Buffer): McpPost | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return Array.isArray(value)
    ? { messages: value.map(classifyMessage), batch: true }
    : { messages: [classifyMessage(value)], batch: false };
}

/** The request headers SEP-2243 has clients mirror from the body, as received. */
export interface MirroredHeaders {
  readonly method: string | undefined;
  readonly name: string | undefined;
}

/**
 * Why the `Mcp-Method` / `Mcp-Name` headers contradict the body (a server must refuse such a
 * request, so replay does too), or undefined when they agree or are absent. `Mcp-Name` may be
 * sent base64-encoded as `=?base64?…?=`.
 */
export function headerMismatch(
  headers: MirroredHeaders,
  message: JsonRpcMessage,
): string | undefined {
  if (message.kind !== 'request' && message.kind !== 'notification') return undefined;
  if (headers.method !== undefined && headers.method !== message.method)
    return `the Mcp-Method header (${headers.method}) does not match the body's method (${message.method})`;
  const subject = mcpSubject(message.method, message.params);
  const name = headers.name === undefined ? undefined : decodeHeaderValue(headers.name);
  if (name !== undefined && subject !== undefined && name !== subject)
    return `the Mcp-Name header (${name}) does not match the body's ${message.method.startsWith('resources/') ? 'uri' : 'name'} (${subject})`;
  return undefined;
}

function decodeHeaderValue(value: string): string {
  const encoded = /^=\?base64\?(.*)\?=$/i.exec(value);
  return encoded ? Buffer.from(encoded[1] ?? '', 'base64').toString('utf8') : value;
}

/** An HTTP-level error answer in JSON-RPC form (`id: null`: it answers no particular request). */
export function mcpErrorBody(error: JsonRpcError): string {
  return JSON.stringify(responseMessage(null, { error }));
}
