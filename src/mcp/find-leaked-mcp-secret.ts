import { dataHoldsSecret } from '../cassette/find-leaked-secret.js';
import type { McpExchange } from './mcp-exchange.js';

/**
 * Where a credential sent in an MCP session is still present in one of its exchanges, as it
 * would be stored or exported; undefined when the exchange is clean. Searched independently
 * of the redaction it checks, string by string, keys and numbers included.
 */
export function findLeakedMcpSecret(
  exchange: McpExchange,
  credentials: ReadonlySet<string>,
): string | undefined {
  if (credentials.size === 0) return undefined;
  const holds = (value: unknown): boolean => dataHoldsSecret(value, credentials);
  if (holds(exchange.params) || holds(exchange.subject)) return 'params';
  if (holds(exchange.canonical)) return 'canonical request';
  if (holds(exchange.result)) return 'result';
  if (holds(exchange.error)) return 'error';
  if (holds(exchange.during)) return 'messages sent during the request';
  const { server, method, sessionId, mcpSessionId, requestId, protocolVersion } = exchange;
  if (holds([server, method, sessionId, mcpSessionId, requestId, protocolVersion]))
    return 'identifiers';
  return undefined;
}
