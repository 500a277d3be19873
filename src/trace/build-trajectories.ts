import { ConversationChain } from './conversation-chain.js';
import type { Interaction, ToolCall } from './trace.js';
import type { ToolResult, Trajectory, TrajectoryCall, Turn } from './trajectory.js';

/** Sessions under this prefix are calltape's own round trips (LLM judges), never an agent's run. */
export const judgeSessionPrefix = 'calltape-judge';

/**
 * Groups interactions into trajectories, one per session (explicit ids, else conversation
 * chaining), in the order the round trips started. A tool call's result is the tool message
 * with its id on a later request of the same run (or the mock's answer, for a call a calltape
 * mock answered). Round trips that failed stay in as turns with their status: an agent that
 * retried three times made four round trips. Hidden rounds of the mock tool loop are turns
 * too: the model made them, though the agent never saw them. `serverResults` are what MCP
 * servers answered calls (by call id): their failure verdict wins over the agent's message.
 * Tools the provider ran itself (hosted) are calls of their turn too, with the result the
 * response carried, marked `hosted`.
 */
export function buildTrajectories(
  interactions: readonly Interaction[],
  serverResults: ReadonlyMap<string, ToolResult> = new Map(),
): Trajectory[] {
  const ordered = [...interactions].sort(
    (left, right) =>
      left.timing.startedAt - right.timing.startedAt ||
      (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
  );
  const chain = new ConversationChain();
  const sessions = new Map<string, Interaction[]>();
  for (const interaction of ordered) {
    if (interaction.sessionId.startsWith(judgeSessionPrefix)) continue;
    const session = chain.assign(interaction);
    let members = sessions.get(session);
    if (!members) sessions.set(session, (members = []));
    members.push(interaction);
  }
  return [...sessions].map(([sessionId, members]) =>
    trajectoryOf(sessionId, members, serverResults),
  );
}

function trajectoryOf(
  sessionId: string,
  interactions: readonly Interaction[],
  serverResults: ReadonlyMap<string, ToolResult>,
): Trajectory {
  const results = new Map<string, ToolResult>();
  const mocked = new Set<string>();
  for (const interaction of interactions) {
    for (const call of interaction.mocked ?? []) {
      mocked.add(call.callId);
      results.set(call.callId, { text: call.content, isError: call.isError });
    }
  }
  let userTurns = 0;
  for (const interaction of interactions) {
    // Each request carries the conversation so far: the longest one counts its user turns.
    userTurns = Math.max(
      userTurns,
      interaction.request.messages.filter((message) => message.role === 'user').length,
    );
    for (const message of interaction.request.messages) {
      if (message.role === 'tool' && message.toolCallId !== undefined)
        results.set(message.toolCallId, { text: message.text, isError: message.isError });
    }
  }
  for (const [id, server] of serverResults)
    results.set(id, { text: results.get(id)?.text ?? server.text, isError: server.isError });
  const calls: TrajectoryCall[] = [];
  // Counted in a Map: tool names come from the model (`constructor`, `__proto__` are names like any other).
  const byTool = new Map<string, number>();
  const place = (
    call: ToolCall,
    turn: number,
    outcome: Pick<TrajectoryCall, 'result' | 'mocked' | 'hosted'>,
  ): TrajectoryCall => {
    const placed: TrajectoryCall = {
      id: call.id,
      name: call.name,
      argumentsRaw: call.argumentsRaw,
      arguments: call.arguments,
      complete: call.complete,
      turn,
      index: call.index,
      step: calls.length,
      ...outcome,
    };
    calls.push(placed);
    byTool.set(call.name, (byTool.get(call.name) ?? 0) + 1);
    return placed;
  };
  const turns: Turn[] = interactions.map((interaction, index) => {
    const output = interaction.response?.output;
    // The provider ran its hosted tools during the turn, before the calls the turn ends with.
    const hosted = (output?.hostedCalls ?? []).map((call) =>
      place(call, index, {
        result: call.result,
        mocked: false,
        hosted: { kind: call.kind, server: call.server },
      }),
    );
    const own = (output?.toolCalls ?? []).map((call) =>
      place(call, index, {
        result: call.id === undefined ? undefined : results.get(call.id),
        mocked: call.id !== undefined && mocked.has(call.id),
      }),
    );
    return {
      index,
      interactionId: interaction.id,
      startedAt: interaction.timing.startedAt,
      status: interaction.status,
      text: output?.text ?? '',
      finishReason: output?.finishReason,
      calls: [...hosted, ...own],
    };
  });
  const finalText = [...turns].reverse().find((turn) => turn.text !== '')?.text ?? '';
  return {
    sessionId,
    turns,
    calls,
    finalText,
    // fromEntries defines own properties: a `__proto__` count stays a count.
    counts: {
      rounds: turns.length,
      calls: calls.length,
      byTool: Object.fromEntries(byTool),
      userTurns,
    },
  };
}
