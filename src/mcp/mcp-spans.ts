/**
 * An MCP exchange as the OpenTelemetry MCP semantic conventions describe it: the MCP client span
 * `{mcp.method.name} {target}` (kind CLIENT — calltape stands where the client's request leaves
 * for the server), with `mcp.*`, `jsonrpc.*` and, for tools/call, the `execute_tool` attributes.
 * Pure. Convention followed: open-telemetry/semantic-conventions-genai `docs/gen-ai/mcp.md`
 * (status Development, commit 0393513, referencing semantic conventions v1.41.1).
 */
import type { AttributeValue, ContentCapture, SpanPlan } from '../otel/gen-ai-spans.js';
import type { McpOperation } from '../otel/mcp-operation.js';
import type { Interaction, JsonValue } from '../trace/trace.js';
import { asObject } from './json-rpc.js';
import { exchangeFailed, type McpExchange } from './mcp-exchange.js';
import { carriesOut, joinMcpCalls, modelToolCalls } from './join-mcp-calls.js';

/** What of an exchange a span needs (a stored exchange has no key; a live one has no `failed` flag). */
export type SpannedExchange = Omit<McpExchange, 'key' | 'canonical' | 'ordinal'>;

/** The MCP client span of one exchange. */
export function mcpSpan(exchange: SpannedExchange, capture: ContentCapture): SpanPlan {
  const { method, subject } = exchange;
  const attributes: Record<string, AttributeValue> = {
    'mcp.method.name': method,
    'calltape.mcp.server': exchange.server,
    'calltape.mcp.exchange.id': exchange.id,
  };
  // The span name's target is a tool or prompt name; a resource URI is high-cardinality, so only an attribute.
  let target: string | undefined;
  if (method === 'tools/call' && subject !== undefined) {
    target = subject;
    attributes['gen_ai.operation.name'] = 'execute_tool';
    attributes['gen_ai.tool.name'] = subject;
  } else if (method === 'prompts/get' && subject !== undefined) {
    target = subject;
    attributes['gen_ai.prompt.name'] = subject;
  } else if (method.startsWith('resources/') && subject !== undefined)
    attributes['mcp.resource.uri'] = subject;
  if (exchange.requestId !== undefined) attributes['jsonrpc.request.id'] = exchange.requestId;
  if (exchange.mcpSessionId !== undefined) attributes['mcp.session.id'] = exchange.mcpSessionId;
  if (exchange.protocolVersion !== undefined)
    attributes['mcp.protocol.version'] = exchange.protocolVersion;
  if (exchange.transport === 'stdio') attributes['network.transport'] = 'pipe';
  if (exchange.transport === 'http') {
    attributes['network.transport'] = 'tcp';
    attributes['network.protocol.name'] = 'http';
  }
  if (exchange.mockSet !== undefined) attributes['calltape.tool.mocked'] = true;
  let error: string | undefined;
  if (exchange.error) {
    attributes['error.type'] = String(exchange.error.code);
    attributes['rpc.response.status_code'] = String(exchange.error.code);
    error = exchange.error.message;
  } else if (exchangeFailed(exchange)) {
    attributes['error.type'] = 'tool_error';
    error = 'the tool reported an error';
  }
  if (capture.content && method === 'tools/call') {
    const args = asObject(exchange.params)?.['arguments'];
    if (args !== undefined) attributes['gen_ai.tool.call.arguments'] = JSON.stringify(args);
    if (error === undefined && exchange.result !== undefined)
      attributes['gen_ai.tool.call.result'] = JSON.stringify(exchange.result);
  }
  return {
    name: target === undefined ? method : `${method} ${target}`,
    kind: 'client',
    startMs: exchange.startedAt,
    endMs: exchange.startedAt + exchange.totalMs,
    attributes,
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The exchange as the span writer takes it: its span, and for a tools/call how to recognise the
 * model's call it carried out (same tool, same arguments). `joined` is the session and model
 * call `joinMcpCalls` found over a whole cassette; live, the writer looks for the call itself.
 */
export function mcpOperation(
  exchange: SpannedExchange,
  capture: ContentCapture,
  joined?: { readonly sessionId: string; readonly callId: string | null },
): McpOperation {
  const span = mcpSpan(exchange, capture);
  const tool = exchange.method === 'tools/call' ? exchange.subject : undefined;
  const args: JsonValue = asObject(exchange.params)?.['arguments'] ?? {};
  return {
    sessionId: joined?.sessionId ?? exchange.sessionId,
    sessionGiven: exchange.sessionGiven || (joined?.callId ?? null) !== null,
    span,
    ...(joined === undefined ? {} : { callId: joined.callId }),
    ...(tool === undefined
      ? {}
      : { carries: (call) => carriesOut(call.name, call.argumentsRaw, tool, args) }),
  };
}

/**
 * A cassette's MCP exchanges as operations, each tools/call joined (`joinMcpCalls`) to the LLM
 * session and model call it carried out, so the export puts it where the live proxy would.
 */
export function cassetteMcpOperations(
  interactions: readonly Interaction[],
  exchanges: readonly SpannedExchange[],
  capture: ContentCapture,
): McpOperation[] {
  const joined = joinMcpCalls(
    modelToolCalls(interactions),
    exchanges.filter((exchange) => exchange.method === 'tools/call'),
  );
  return exchanges.map((exchange) => mcpOperation(exchange, capture, joined.get(exchange.id)));
}
