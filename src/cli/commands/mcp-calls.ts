import type { StoredToolCall } from '../../cassette/sqlite/sqlite-store.js';
import { asObject } from '../../mcp/json-rpc.js';
import { joinMcpCalls } from '../../mcp/join-mcp-calls.js';
import { McpStore, type StoredMcpExchange } from '../../mcp/mcp-store.js';
import { shorten } from '../shorten.js';
import { compactTable } from './compact-table.js';

/** An MCP tools/call as `calltape calls` lists it, in the LLM session it joined. */
export interface ListedMcpCall {
  readonly exchange: StoredMcpExchange;
  readonly sessionId: string;
  /** The model's tool call this carried out, when one matched. */
  readonly callId: string | null;
}

/** The MCP tool calls of a cassette, joined to the model's tool calls, optionally of one session. */
export function listMcpCalls(
  cassette: string,
  modelCalls: readonly StoredToolCall[],
  session: string | undefined,
): ListedMcpCall[] {
  const store = new McpStore(cassette, { readonly: true });
  const exchanges = store.list({ method: 'tools/call' });
  store.close();
  const joined = joinMcpCalls(modelCalls, exchanges);
  return exchanges
    .map((exchange) => ({
      exchange,
      sessionId: joined.get(exchange.id)?.sessionId ?? exchange.sessionId,
      callId: joined.get(exchange.id)?.callId ?? null,
    }))
    .filter((call) => session === undefined || call.sessionId === session);
}

export function mcpCallJson(call: ListedMcpCall): Record<string, unknown> {
  const { exchange } = call;
  return {
    kind: 'mcp',
    id: exchange.id,
    session_id: call.sessionId,
    started_at: new Date(exchange.startedAt).toISOString(),
    server: exchange.server,
    name: exchange.subject ?? null,
    arguments: asObject(exchange.params)?.['arguments'] ?? {},
    call_id: call.callId,
    result: exchange.result ?? null,
    error: exchange.error ?? null,
    failed: exchange.failed,
    mocked: exchange.mockSet !== undefined,
  };
}

export function renderMcpTable(calls: readonly ListedMcpCall[]): string {
  if (calls.length === 0) return '';
  const table = compactTable(['time', 'session', 'server', 'tool', 'arguments', 'result']);
  for (const call of calls) {
    const { exchange } = call;
    const outcome = exchange.error
      ? `error ${exchange.error.code}`
      : exchange.failed
        ? 'isError'
        : 'ok';
    table.push([
      new Date(exchange.startedAt).toISOString().slice(11, 23),
      shorten(call.sessionId, 14),
      exchange.server,
      exchange.subject ?? '',
      shorten(JSON.stringify(asObject(exchange.params)?.['arguments'] ?? {}), 40),
      exchange.mockSet !== undefined ? `${outcome} (mocked)` : outcome,
    ]);
  }
  return `${table.toString()}\n${calls.length} MCP tool call(s)\n`;
}
