import type { ArgumentRule } from '../scoring/types.js';
import type { StateEntries } from '../mocks/mock-state-rules.js';
import type { JsonValue } from '../trace/trace.js';

/** An MCP tool result as a mock writes it (config/mocks.schema.json `$defs/mcpAnswer`). */
export interface McpAnswerSpec {
  /** Text (one text block) or MCP content blocks. */
  readonly content?: string | readonly { readonly [key: string]: JsonValue }[];
  readonly structuredContent?: { readonly [key: string]: JsonValue };
  readonly isError?: boolean;
  /** State keys this answer sets in the session (see `stateChanges`). */
  readonly set?: StateEntries;
}

/** An answer given when the call's arguments match (scoring-engine rules; partial). */
export interface McpConditionalAnswer extends McpAnswerSpec {
  readonly arguments?: { readonly [name: string]: JsonValue };
  readonly rules?: { readonly [path: string]: ArgumentRule };
  /** Values the session's state must hold (see `stateHolds`). */
  readonly state?: StateEntries;
}

/** A mocked MCP tool of one server. */
export interface McpMockSpec extends McpAnswerSpec {
  readonly tool: string;
  readonly description?: string;
  readonly when?: readonly McpConditionalAnswer[];
  readonly otherwise?: McpAnswerSpec;
}

/** One server's entry under `mcp` in a mocks file. */
export interface McpServerMocks {
  /** The tools/list answer, for a server that is not started. */
  readonly tools?: readonly { readonly [key: string]: JsonValue }[];
  /** The state each session starts from. */
  readonly state?: StateEntries;
  readonly mocks?: readonly McpMockSpec[];
}

/** The MCP mocks of one server, loaded from every mocks file given. */
export interface McpServerMockSet {
  /** The tools/list `tools`, when a file declares them. */
  readonly tools: readonly { readonly [key: string]: JsonValue }[] | undefined;
  /** Mocked tools by name, each with the set (file) it comes from. */
  readonly mocks: ReadonlyMap<string, { readonly spec: McpMockSpec; readonly set: string }>;
  /** The state each session starts from (empty when no file declares one). */
  readonly state: ReadonlyMap<string, JsonValue>;
}
