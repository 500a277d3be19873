/**
 * A trajectory: one agent run (a session) as the ordered LLM round trips it made, with the tool
 * calls of each, the results the agent sent back, and counts. What trajectory checks and judges
 * read. Plain JSON: it crosses threads and is handed to user judges as is.
 */
import type { FinishReason, InteractionStatus, ParsedArguments } from './trace.js';

/** What the agent sent back for a tool call on its next request. */
export interface ToolResult {
  readonly text: string;
  /** Whether the agent reported the tool as failed (where the wire says). */
  readonly isError: boolean | undefined;
}

/** One tool call, placed in its run. */
export interface TrajectoryCall {
  /** Provider-assigned call id; undefined when the wire omitted it. */
  readonly id: string | undefined;
  readonly name: string;
  /** The argument string as the model produced it. */
  readonly argumentsRaw: string;
  readonly arguments: ParsedArguments;
  /** False when the call's stream ended before the provider finished it. */
  readonly complete: boolean;
  /** The turn (0-based) the call was made in; calls of one turn were made in parallel. */
  readonly turn: number;
  /** Position within its turn, as the provider numbered it. */
  readonly index: number;
  /** Position in the whole run (0-based), in turn order then index order. */
  readonly step: number;
  /** The result the agent sent back, when a later request in the run carried it. */
  readonly result: ToolResult | undefined;
  /** Answered by a calltape mock rather than by the agent's own tool. */
  readonly mocked: boolean;
  /** Present when the provider ran the tool itself (a hosted tool): the wire's type of the call, and the MCP server where the wire names one. */
  readonly hosted?: { readonly kind: string; readonly server: string | undefined };
  /** Present when no model call asked for it: an MCP call the agent made of its own accord, put in only for step limits to count. */
  readonly unasked?: true;
}

/** One LLM round trip of the run. */
export interface Turn {
  readonly index: number;
  readonly interactionId: string;
  readonly startedAt: number;
  readonly status: InteractionStatus;
  /** The text the model produced in this turn (empty when none). */
  readonly text: string;
  readonly finishReason: FinishReason | undefined;
  readonly calls: readonly TrajectoryCall[];
}

export interface Trajectory {
  readonly sessionId: string;
  readonly turns: readonly Turn[];
  /** Every call of the run, in order (turn, then the turn's hosted calls, then the agent's calls by index). */
  readonly calls: readonly TrajectoryCall[];
  /** The text of the last turn that produced any: the agent's final answer. */
  readonly finalText: string;
  readonly counts: {
    /** LLM round trips (`turns.length`); user turns are `userTurns`. */
    readonly rounds: number;
    readonly calls: number;
    /** Calls per tool name. */
    readonly byTool: { readonly [tool: string]: number };
    /** User messages in the conversation: the most any one request of the run carried (absent: not counted). */
    readonly userTurns?: number;
  };
}
