import { joinMcpCalls, modelToolCalls } from '../mcp/join-mcp-calls.js';
import { asObject } from '../mcp/json-rpc.js';
import { serverResult, type AnsweredToolCall } from '../mcp/mcp-call-results.js';
import type { Interaction } from '../trace/trace.js';
import type { ToolResult, Trajectory, TrajectoryCall } from '../trace/trajectory.js';
import type { TrajectoryStep } from './verdict-types.js';

/** A tools/call the proxy's `/mcp/<name>` route answered, with its server: joined to a model call when its session ends. */
export type RelayedMcpCall = AnsweredToolCall & { readonly server: string };

/** What one ended session takes of the relayed MCP calls. */
export interface SessionMcpCalls {
  /** The server's verdict on each model call an MCP call carried out, by the model's call id. */
  readonly results: Map<string, ToolResult>;
  /** The server that carried out each of those calls, by the model's call id. */
  readonly servers: Map<string, string>;
  /** The session's MCP calls no model call asked for. */
  readonly unasked: readonly RelayedMcpCall[];
}

/** Relayed MCP calls waiting for their session to end; beyond it the oldest are forgotten. */
const maxWaiting = 1_000;

/** The relayed MCP tools/calls not yet placed in an ended session, oldest first (bounded). */
export class RelayedMcpCalls {
  private calls: RelayedMcpCall[] = [];

  note(calls: readonly RelayedMcpCall[]): void {
    for (const call of calls) this.calls.push(call);
    if (this.calls.length > maxWaiting) this.calls.splice(0, this.calls.length - maxWaiting);
  }

  /**
   * Takes the calls that belong to this session (`joinMcpCalls`: by a session given on both
   * sides, else by name and arguments). A call with no session of its own that no model call
   * here explains stays for the next session to end.
   */
  take(sessionId: string, interactions: readonly Interaction[]): SessionMcpCalls {
    const results = new Map<string, ToolResult>();
    const servers = new Map<string, string>();
    const unasked: RelayedMcpCall[] = [];
    if (this.calls.length === 0) return { results, servers, unasked };
    const candidates = this.calls.filter(
      (call) => !call.sessionGiven || call.sessionId === sessionId,
    );
    const joined = joinMcpCalls(modelToolCalls(interactions), candidates);
    const taken = new Set<RelayedMcpCall>();
    for (const call of candidates) {
      const callId = joined.get(call.id)?.callId ?? null;
      if (callId !== null) {
        results.set(callId, serverResult(call));
        servers.set(callId, call.server);
      } else if (call.sessionGiven) unasked.push(call);
      else continue;
      taken.add(call);
    }
    if (taken.size > 0) this.calls = this.calls.filter((call) => !taken.has(call));
    return { results, servers, unasked };
  }
}

/** A relayed MCP call no model call asked for, placed after the turn it followed. */
export function unaskedStep(call: RelayedMcpCall, turns: Trajectory['turns']): TrajectoryStep {
  return {
    turn: Math.max(1, turns.filter((turn) => turn.startedAt <= call.startedAt).length),
    tool: call.subject ?? 'tools/call',
    arguments: JSON.stringify(asObject(call.params)?.['arguments'] ?? {}),
    verdict: 'unscored',
    failures: [],
    server: call.server,
    unasked: true,
    outcome: serverResult(call).isError ? 'failed' : 'succeeded',
  };
}

/**
 * The trajectory step limits count: the session's, with the MCP calls no model call asked for
 * put in as the steps they were — after the calls of the turn they followed, in the order they
 * ran — since the agent ran them all (as the provider's hosted calls count). A step budget
 * bounds what the run did, not only what the model proposed; turns stay the model's.
 */
export function withUnaskedCalls(
  trajectory: Trajectory,
  unasked: readonly RelayedMcpCall[],
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
