import type { ToolCall } from '../trace/trace.js';
import type { SpanPlan } from './gen-ai-spans.js';

/**
 * One MCP exchange to trace (built by mcp/mcp-spans.ts): its MCP client span, and where it belongs.
 * A tools/call that carried out a model's tool call is not a span of its own: its MCP attributes
 * join that call's `execute_tool` span, as the convention asks when the tool execution is
 * already traced. Anything else is a child of its LLM session's `invoke_agent` span when that
 * session is being traced, else a root.
 */
export interface McpOperation {
  /** The LLM session it belongs to (given on both sides, or joined by the caller). */
  readonly sessionId: string;
  /** Whether `sessionId` names an LLM session; otherwise it is the relay's own and the call is looked for in every open session. */
  readonly sessionGiven: boolean;
  readonly span: SpanPlan;
  /** The model's call it carried out, when the caller already joined them (null: none). */
  readonly callId?: string | null;
  /** tools/call: whether it carried out this model call (same tool, same arguments). */
  readonly carries?: (call: ToolCall) => boolean;
}
