import type { Interaction } from '../trace/trace.js';
import type { Trajectory, TrajectoryCall } from '../trace/trajectory.js';
import { joinMcpCalls, modelToolCalls } from './join-mcp-calls.js';
import { asObject } from './json-rpc.js';
import { serverResult, type AnsweredToolCall } from './mcp-call-results.js';

/**
 * The MCP calls of a session no model call asked for: given the session on both sides
 * (`x-calltape-session`, `--session`) and carrying out none of the session's model calls
 * (`joinMcpCalls`). A call with no session of its own that nothing explains belongs to no
 * session, so it is not here.
 */
export function unaskedMcpCalls<Call extends AnsweredToolCall>(
  sessionId: string,
  interactions: readonly Interaction[],
  calls: readonly Call[],
): Call[] {
  const own = calls.filter((call) => call.sessionGiven && call.sessionId === sessionId);
  if (own.length === 0) return [];
  const joined = joinMcpCalls(modelToolCalls(interactions), own);
  return own.filter((call) => (joined.get(call.id)?.callId ?? null) === null);
}

/**
 * The trajectory step limits count: the session's, with the MCP calls no model call asked for
 * put in as the steps they were — after the calls of the turn they followed, in the order they
 * ran — since the agent ran them all (as the provider's hosted calls count). A step budget
 * bounds what the run did, not only what the model proposed; turns stay the model's.
 */
export function withUnaskedCalls(
  trajectory: Trajectory,
  unasked: readonly AnsweredToolCall[],
): Trajectory {
  if (unasked.length === 0) return trajectory;
  const byTurn = new Map<number, TrajectoryCall[]>();
  for (const call of trajectory.calls)
    byTurn.set(call.turn, [...(byTurn.get(call.turn) ?? []), call]);
  const byTool: { [tool: string]: number } = { ...trajectory.counts.byTool };
  for (const call of [...unasked].sort((a, b) => a.startedAt - b.startedAt)) {
    const turn = Math.max(
      0,
      trajectory.turns.filter((followed) => followed.startedAt <= call.startedAt).length - 1,
    );
    const calls = byTurn.get(turn) ?? [];
    const args = asObject(call.params)?.['arguments'] ?? {};
    const name = call.subject ?? 'tools/call';
    calls.push({
      id: undefined,
      name,
      argumentsRaw: JSON.stringify(args),
      arguments: { ok: true, value: args },
      complete: true,
      turn,
      index: calls.length,
      step: 0,
      result: serverResult(call),
      mocked: false,
      unasked: true,
    });
    byTurn.set(turn, calls);
    byTool[name] = (Object.hasOwn(byTool, name) ? (byTool[name] ?? 0) : 0) + 1;
  }
  const calls = [...byTurn.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, turnCalls]) => turnCalls)
    .map((call, step) => ({ ...call, step }));
  return { ...trajectory, calls, counts: { ...trajectory.counts, calls: calls.length, byTool } };
}
