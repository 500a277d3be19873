import { joinMcpCalls, modelToolCalls } from '../mcp/join-mcp-calls.js';
import { asObject } from '../mcp/json-rpc.js';
import { serverResult, type AnsweredToolCall } from '../mcp/mcp-call-results.js';
import type { Interaction } from '../trace/trace.js';
import type { ToolResult, Trajectory } from '../trace/trajectory.js';
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
