import type { JsonValue } from '../trace/trace.js';
import type { JsonRpcError } from './json-rpc.js';

/** One MCP request and its answer, as a cassette stores it (params and result already redacted). */
export interface McpExchange {
  /** UUIDv7, time-ordered like interaction ids. */
  readonly id: string;
  /** The session the relay ran under (`--session`, `CALLTAPE_SESSION`, or one per relay run). */
  readonly sessionId: string;
  /** Whether the session id was given rather than generated (a given one joins the LLM session directly). */
  readonly sessionGiven: boolean;
  /** The server's name (`--name`). */
  readonly server: string;
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly subject: string | undefined;
  readonly params: JsonValue | undefined;
  readonly result: JsonValue | undefined;
  readonly error: JsonRpcError | undefined;
  /** Key of the canonical request (SHA-256 hex) and its text. */
  readonly key: string;
  readonly canonical: string;
  /** 0 for the first identical request of this server in this run, 1 for the second… */
  readonly ordinal: number;
  readonly startedAt: number;
  readonly totalMs: number;
  /** The mock set that answered, when a mock did. */
  readonly mockSet: string | undefined;
  /** The JSON-RPC `id` of the request, as text (`7`, `req-7`); absent in recordings made before it was kept. */
  readonly requestId?: string;
  /** How the client reached the server: the stdio relay (`calltape mcp`) or the proxy's Streamable HTTP route. */
  readonly transport?: McpTransport;
  /** The `Mcp-Session-Id` of the Streamable HTTP session, when the server (or calltape) issued one. */
  readonly mcpSessionId?: string;
  /** The MCP protocol version the session's `initialize` asked for. */
  readonly protocolVersion?: string;
  /**
   * What the server sent while it worked on the request, before its answer, in order (redacted):
   * progress notifications for the request's progress token, and requests to the client
   * (`roots/list`, `sampling/createMessage`, `elicitation/create`). Replay sends them again.
   */
  readonly during?: readonly JsonValue[];
}

/** The MCP transports calltape carries. */
export type McpTransport = 'stdio' | 'http';

/** Whether an exchange failed: a JSON-RPC error, or a tool result with `isError: true`. */
export function exchangeFailed(exchange: Pick<McpExchange, 'result' | 'error'>): boolean {
  if (exchange.error) return true;
  const result = exchange.result;
  return (
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    result['isError'] === true
  );
}
