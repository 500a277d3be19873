import { buildTrajectories } from '../trace/build-trajectories.js';
import type {
  Interaction,
  InteractionStatus,
  JsonSchema,
  Message,
  ToolDefinition,
} from '../trace/trace.js';

/** One tool call as a person (or a judge) must see it to judge tool use. */
export interface RunViewCall {
  readonly tool: string;
  /** The arguments exactly as the model wrote them. */
  readonly arguments: string;
  /** The result the agent (or a calltape mock) sent back; null when none was sent. */
  readonly result: string | null;
  /** The tool reported a failure. */
  readonly failed: boolean;
  readonly mocked: boolean;
}

/** One model round trip of the run. */
export interface RunViewTurn {
  readonly status: InteractionStatus;
  /** What the model wrote in this turn (empty when none). */
  readonly text: string;
  readonly calls: readonly RunViewCall[];
}

/**
 * Everything needed to judge one run's tool use: the conversation the agent started from, the
 * tools the model was offered, each turn's calls with arguments and results, and the final
 * answer. The terminal rater, the dashboard and LLM judges all read this one view, so a
 * person and a judge see the same run. Plain JSON.
 */
export interface RunView {
  /** The run reference (`<cassette>#<session>`, `run:<id>/<session>`). */
  readonly run: string;
  /** The last user message before the first turn: the request being served. */
  readonly request: string;
  /** The conversation as the first round trip carried it (system prompt, earlier turns, the request). */
  readonly conversation: readonly { readonly role: Message['role']; readonly text: string }[];
  /** Every tool offered in any turn, by name, first offer first. */
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
  }[];
  readonly turns: readonly RunViewTurn[];
  readonly finalAnswer: string;
}

/** Builds the view of one session's interactions; undefined when there are none. */
export function buildRunView(
  run: string,
  interactions: readonly Interaction[],
): RunView | undefined {
  const [trajectory] = buildTrajectories(interactions);
  const first = [...interactions].sort(
    (left, right) => left.timing.startedAt - right.timing.startedAt,
  )[0];
  if (!trajectory || !first) return undefined;
  const conversation = first.request.messages.map((message) => ({
    role: message.role,
    text:
      message.role === 'assistant' && message.toolCalls.length > 0
        ? [
            message.text,
            ...message.toolCalls.map((call) => `[called ${call.name}(${call.argumentsRaw})]`),
          ]
            .filter(Boolean)
            .join('\n')
        : message.text,
  }));
  const request =
    [...first.request.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
  const tools = new Map<string, ToolDefinition>();
  for (const interaction of interactions)
    for (const tool of interaction.request.tools)
      if (!tools.has(tool.name)) tools.set(tool.name, tool);
  const turns = trajectory.turns.map((turn) => ({
    status: turn.status,
    text: turn.text,
    calls: turn.calls.map((call) => ({
      tool: call.name,
      arguments: call.argumentsRaw,
      result: call.result?.text ?? null,
      failed: call.result?.isError === true,
      mocked: call.mocked,
    })),
  }));
  return {
    run,
    request,
    conversation,
    tools: [...tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.parameters,
    })),
    turns,
    finalAnswer: trajectory.finalText,
  };
}
