import { buildTrajectories } from '../trace/build-trajectories.js';
import type { Interaction } from '../trace/trace.js';
import type { Trajectory } from '../trace/trajectory.js';
import type { AnsweredToolCall } from './mcp-call-results.js';
import { unaskedMcpCalls, withUnaskedCalls } from './unasked-mcp-calls.js';

/**
 * What a case's step limits count offline (`calltape test`, `calltape score`): the run's
 * trajectory with the session's recorded MCP calls no model call asked for, as shadow scoring
 * counts them. Which calls those are is decided on the timeline they were recorded on
 * (`recorded`: the session's round trips as recorded beside them); each is then put after the
 * run's turn of the same index — a replayed run's clock is not the recording's. Undefined when
 * there is no such call (the trajectory is what step limits count).
 */
export function recordedUnaskedSteps(
  trajectory: Trajectory,
  recorded: readonly Interaction[],
  calls: readonly AnsweredToolCall[],
): Trajectory | undefined {
  const unasked = unaskedMcpCalls(trajectory.sessionId, recorded, calls);
  if (unasked.length === 0) return undefined;
  const recordedTurns = buildTrajectories(recorded)[0]?.turns ?? [];
  const lastTurn = trajectory.turns.length - 1;
  const placed = unasked.map((call) => {
    const followed = recordedTurns.filter((turn) => turn.startedAt <= call.startedAt).length - 1;
    const turn = trajectory.turns[Math.min(Math.max(0, followed), lastTurn)];
    return turn ? { ...call, startedAt: turn.startedAt } : call;
  });
  return withUnaskedCalls(trajectory, placed);
}
