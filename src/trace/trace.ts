/**
 * The provider-neutral trace model. Every wire adapter (`src/providers/*`) turns its
 * traffic into these types; everything downstream (store, mocks, scoring, reports, live
 * feed) reads only these, never wire JSON. Pure types: no runtime imports.
 */

/** Identifies the wire format an interaction was spoken in. */
export type ProviderId =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'ollama-chat'
  | 'gemini'
  | 'bedrock-converse'
  | 'bedrock-invoke';

/** A JSON value as it appears in request and response bodies. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema object (draft 2020-12 / OpenAPI subset, as providers accept it). */
export type JsonSchema = { [key: string]: JsonValue };

/** The outcome of parsing a tool call's argument string. Malformed JSON is kept, never fixed up. */
export type ParsedArguments =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: string };

/** One tool call the model made. */
export interface ToolCall {
  /** Provider-assigned call id (`call_…`, `toolu_…`); undefined when the wire omitted it. */
  readonly id: string | undefined;
  /** Position of the call within its turn, as the provider numbered it (0-based). */
  readonly index: number;
  /** Name of the tool (function) called; empty when a truncated stream never sent it. */
  readonly name: string;
  /** The argument string exactly as the model produced it (concatenated stream deltas). */
  readonly argumentsRaw: string;
  /** `argumentsRaw` parsed as JSON, or the parse error. */
  readonly arguments: ParsedArguments;
  /**
   * False when the call's stream ended before the provider finished it (truncated, errored
   * or aborted). An incomplete call is recorded as it was, never completed "leniently".
   */
  readonly complete: boolean;
}

/** What a hosted tool answered, as the provider reported it in the same response. */
export interface HostedResult {
  /** The result as text: the tool's text output, logs or found sources (empty when the wire carries none). */
  readonly text: string;
  /** The provider reported the run as failed (an `error`, a `failed` status, an `is_error` flag, an `*_error` result, a non-zero exit code). */
  readonly isError: boolean;
}

/**
 * A tool the provider ran itself during the turn — the Responses API's `mcp_call`,
 * `web_search_call`, `file_search_call` and `code_interpreter_call` items, Anthropic's
 * `server_tool_use` and `mcp_tool_use` blocks. The agent never executes it and sends no result
 * back: the result (when there is one) is in the same response.
 */
export interface HostedToolCall extends ToolCall {
  /** The wire's own type of the call (`mcp_call`, `web_search_call`, `server_tool_use`, `mcp_tool_use`…). */
  readonly kind: string;
  /** The MCP server that ran it, as the wire labels it (Responses `server_label`, Anthropic `server_name`); undefined for built-in tools. */
  readonly server: string | undefined;
  /** What the tool answered; undefined when the response carries no answer (the stream was cut before it). */
  readonly result: HostedResult | undefined;
}

/** Why the model stopped, normalised, with the provider's own value beside it. */
export interface FinishReason {
  readonly unified:
    'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other' | 'unknown';
  /** The provider's value verbatim (`tool_calls`, `end_turn`…); undefined when none was sent. */
  readonly raw: string | undefined;
}

/** Token counts as the provider reported them. */
export interface Usage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly totalTokens: number | undefined;
  readonly cachedInputTokens: number | undefined;
  readonly reasoningTokens: number | undefined;
}

/** One assistant output: the text, refusal and tool calls of a turn (an OpenAI "choice"). */
export interface AssistantOutput {
  /** The visible text the model produced (empty string when none). */
  readonly text: string;
  /** Refusal text, when the model refused (OpenAI `refusal`). */
  readonly refusal: string | undefined;
  /** Tool calls the agent is to run, ordered by `index`. */
  readonly toolCalls: readonly ToolCall[];
  /** Tools the provider ran itself during the turn, in the order it ran them; absent when none. */
  readonly hostedCalls?: readonly HostedToolCall[];
  readonly finishReason: FinishReason;
}

/** A tool the request offered to the model. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string | undefined;
  /** The tool's parameter JSON Schema; `{}` when the request gave none. */
  readonly parameters: JsonSchema;
  readonly strict: boolean | undefined;
}

/** How the request constrained tool use. */
export type ToolChoice =
  | { readonly type: 'auto' | 'none' | 'required' }
  | { readonly type: 'tool'; readonly name: string };

/** A conversation message in the request, reduced to what scoring and trajectories need. */
export interface Message {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  /** Text content; multi-part content has its text parts joined with newlines. */
  readonly text: string;
  /** Tool calls an assistant message carries (earlier turns replayed by the agent). */
  readonly toolCalls: readonly ToolCall[];
  /** For tool results: the id of the call this message answers. */
  readonly toolCallId: string | undefined;
  /** For tool results: whether the agent reported the tool as failed (where the wire says). */
  readonly isError: boolean | undefined;
}

/** What the agent asked for. */
export interface RequestSummary {
  readonly model: string | undefined;
  readonly stream: boolean;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice | undefined;
  /** The id of an earlier response this request continues server-side (Responses `previous_response_id`). */
  readonly continues?: string;
}

/** What the model answered. */
export interface ResponseSummary {
  /** Provider response id (`chatcmpl-…`). */
  readonly id: string | undefined;
  /** The model that actually answered (may differ from the requested alias). */
  readonly model: string | undefined;
  /** The primary output (choice 0). */
  readonly output: AssistantOutput;
  /** Further outputs when the request asked for several (`n` > 1), in choice order. */
  readonly alternatives: readonly AssistantOutput[];
  readonly usage: Usage | undefined;
}

/**
 * How an interaction ended.
 * - `complete`: the provider finished its answer.
 * - `upstream-error`: the provider answered with an error status or an error event.
 * - `truncated`: the stream ended (or the upstream connection failed) before the answer finished.
 * - `aborted`: the agent disconnected before the answer finished.
 * - `proxy-error`: calltape rejected or could not forward the request (bad JSON, too large,
 *   upstream unreachable or timed out).
 */
export type InteractionStatus =
  'complete' | 'upstream-error' | 'truncated' | 'aborted' | 'proxy-error';

/** Wall-clock timing of one round trip, measured at the proxy. */
export interface Timing {
  /** When the proxy received the request (epoch ms). */
  readonly startedAt: number;
  /** Milliseconds from `startedAt` to the first response body byte from upstream. */
  readonly firstByteMs: number | undefined;
  /** Milliseconds from `startedAt` to the end of the response (or of the failure). */
  readonly totalMs: number;
}

/** One LLM round trip as calltape saw it. */
export interface Interaction {
  /** Unique id assigned by the proxy. */
  readonly id: string;
  /** Session this round trip belongs to (explicit id, or its own id when none was given). */
  readonly sessionId: string;
  readonly provider: ProviderId;
  readonly method: string;
  /** Request path as the agent sent it, without any `/s/<id>` prefix (`/messages` is stored as `/v1/messages`). */
  readonly path: string;
  readonly request: RequestSummary;
  /** Undefined when no parseable answer arrived (proxy errors, most upstream errors). */
  readonly response: ResponseSummary | undefined;
  readonly status: InteractionStatus;
  /** HTTP status returned to the agent. */
  readonly httpStatus: number;
  /** Human-readable cause for every status but `complete`. */
  readonly error: string | undefined;
  readonly timing: Timing;
  /** Calls in the answer that calltape's mock tools answered, with the results the model got. */
  readonly mocked?: readonly MockedResult[];
  /** The agent never saw this round trip: the proxy answered all its calls (a hidden round). */
  readonly hidden?: boolean;
  /** A recorded read (a model list, a model card): replayed like any round, never a round of a trajectory. */
  readonly read?: true;
}

/** A call a mock tool answered inside the proxy. */
export interface MockedResult {
  readonly callId: string;
  readonly name: string;
  /** The mock set (file) that answered. */
  readonly set: string;
  /** The result content the model got. */
  readonly content: string;
  readonly isError: boolean;
  /** Override mode: the result the agent's own tool produced, which the mock's replaced. */
  readonly agentResult?: string;
  /** The state keys the call set in its session (a mock file's `set`), with their new values. */
  readonly state?: { readonly [key: string]: JsonValue };
}
