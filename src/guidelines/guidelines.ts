/**
 * Desired tool-use behaviour: per tool, the situations in which the agent should and should not
 * call it. One format (config/guidelines.schema.json) read by LLM judges (the desired-behaviour
 * template) and by case generation. Pure types.
 */

/** What one tool is for, in sentences a person and a judge model can both read. */
export interface ToolGuidelines {
  /** Situations in which the agent should call the tool. */
  readonly should_use: readonly string[];
  /** Situations in which it should not. */
  readonly should_not_use: readonly string[];
  /** Subjects requests to this tool are about (for case generation; judges do not see them). */
  readonly topics: readonly string[];
}

/** A guidelines document. */
export interface Guidelines {
  /** What the agent is for; empty when not given. */
  readonly description: string;
  /** Per tool name, in the document's order. */
  readonly tools: ReadonlyMap<string, ToolGuidelines>;
}
