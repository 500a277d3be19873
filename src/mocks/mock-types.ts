import type { ArgumentRule } from '../scoring/types.js';
import type { JsonValue } from '../trace/trace.js';
import type { StateEntries } from './mock-state-rules.js';

/** One answer a mock can give: a result, or an error result the agent must handle. */
export interface AnswerSpec {
  readonly result?: JsonValue;
  readonly error?: JsonValue;
  readonly delay_ms?: number;
  /** State keys this answer sets in the call's session (templates; see `stateChanges`). */
  readonly set?: StateEntries;
}

/** An answer given when the call's arguments match (scoring-engine rules; partial). */
export interface ConditionalAnswer extends AnswerSpec {
  readonly arguments?: { readonly [name: string]: JsonValue };
  readonly rules?: { readonly [path: string]: ArgumentRule };
  /** Values the session's state must hold (see `stateHolds`). */
  readonly state?: StateEntries;
}

/** A mocked tool, as written in a mock file (config/mocks.schema.json). */
export interface MockSpec extends AnswerSpec {
  readonly tool: string;
  readonly description?: string;
  readonly when?: readonly ConditionalAnswer[];
  readonly otherwise?: AnswerSpec;
  readonly sequence?: readonly AnswerSpec[];
  readonly after?: 'repeat_last' | 'error';
  readonly module?: string;
  readonly timeout_ms?: number;
}

export interface MockFile {
  /** The state each session starts from (state keys to values). */
  readonly state?: StateEntries;
  readonly tools?: string | { readonly [tool: string]: JsonValue } | readonly JsonValue[];
  /** LLM-side mocks; a file may hold only `mcp` mocks (read by `calltape mcp`). */
  readonly mocks?: readonly MockSpec[];
}

/** What the proxy sends back as the tool's result. */
export interface MockAnswer {
  /** The tool message's content. */
  readonly content: string;
  readonly isError: boolean;
  readonly delayMs: number;
  /** The state keys this call set in its session, with their new values (absent: none). */
  readonly state?: { readonly [key: string]: JsonValue };
}

/** The call a mock answers: its id, tool name and arguments as the model sent them. */
export interface MockCall {
  readonly id: string;
  readonly name: string;
  readonly argumentsRaw: string;
}

/** Where a call sits: its session, and how many earlier calls to the tool that session made (for sequences). */
export interface MockContext {
  readonly session: string;
  readonly occurrence: number;
}

/** A loaded mock, ready to answer. */
export interface Mock {
  readonly tool: string;
  /** The mock set (file) it comes from. */
  readonly set: string;
  answer(call: MockCall, context: MockContext): Promise<MockAnswer>;
}
