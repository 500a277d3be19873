import type { Interaction, JsonValue } from '../trace/trace.js';
import type { ToolResult } from '../trace/trajectory.js';
import { asObject, type JsonRpcError } from './json-rpc.js';
import { exchangeFailed } from './mcp-exchange.js';
import { joinMcpCalls, modelToolCalls, type ServerToolCall } from './join-mcp-calls.js';

/** A stored tools/call with its answer. */
export type AnsweredToolCall = ServerToolCall & {
  readonly result: JsonValue | undefined;
  readonly error: JsonRpcError | undefined;
};

/**
 * What MCP servers answered the model's tool calls, by the model's call id (`joinMcpCalls`):
 * the server's own verdict — `isError`, or a JSON-RPC error — which the agent's tool message
 * may not carry (OpenAI tool messages have no error flag). The step-status checks read it.
 */
export function mcpResultsByCall(
  interactions: readonly Interaction[],
  exchanges: readonly AnsweredToolCall[],
): Map<string, ToolResult> {
  const joined = joinMcpCalls(modelToolCalls(interactions), exchanges);
  const results = new Map<string, ToolResult>();
  for (const exchange of exchanges) {
    const callId = joined.get(exchange.id)?.callId;
    if (callId) results.set(callId, serverResult(exchange));
  }
  return results;
}

/** A server's answer to a tools/call as the tool result of the model's call it carried out. */
export function serverResult(exchange: Pick<AnsweredToolCall, 'result' | 'error'>): ToolResult {
  return { text: resultText(exchange), isError: exchangeFailed(exchange) };
}

function resultText(exchange: Pick<AnsweredToolCall, 'result' | 'error'>): string {
  if (exchange.error) return `error ${exchange.error.code}: ${exchange.error.message}`;
  const content = asObject(exchange.result)?.['content'];
  if (!Array.isArray(content)) return JSON.stringify(exchange.result ?? null);
  return content
    .map((block) => asObject(block)?.['text'])
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}
