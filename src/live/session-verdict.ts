import { withUnaskedCalls } from '../mcp/unasked-mcp-calls.js';
import { outcomeOf } from '../scoring/trajectory/status-check.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { Trajectory } from '../trace/trajectory.js';
import { evaluateSession, type SessionContext } from './evaluate-session.js';
import type { OpenSession } from './open-sessions.js';
import type { SessionPolicy } from './policy-types.js';
import { unaskedStep, type RelayedMcpCalls, type SessionMcpCalls } from './relayed-mcp-calls.js';
import type { CallVerdict, SessionVerdict, TrajectoryStep } from './verdict-types.js';

/**
 * An ended session's verdict: its round trips as one trajectory (tool results paired, and the
 * relayed MCP calls it takes from `mcpCalls`), scored against the session policies, with each
 * call's own verdict. Undefined for a session with no trajectory to score.
 */
export async function sessionVerdict(
  session: OpenSession,
  policies: readonly SessionPolicy[],
  mcpCalls: RelayedMcpCalls,
  context: SessionContext,
): Promise<SessionVerdict | undefined> {
  // Relabelled only where the label differs: a spread per round trip showed in the worker's profile.
  const interactions = session.interactions.map((interaction) =>
    interaction.sessionId === session.id ? interaction : { ...interaction, sessionId: session.id },
  );
  const mcp = mcpCalls.take(session.id, interactions);
  // The session's round trips, ordered, with tool results paired (and a relaying MCP server's verdict on them), as one trajectory.
  const trajectory = buildTrajectories(interactions, mcp.results)[0];
  if (!trajectory) return undefined;
  const sessionTrajectory = { ...trajectory, sessionId: session.id };
  const result = await evaluateSession(policies, sessionTrajectory, {
    ...context,
    stepsTrajectory: withUnaskedCalls(sessionTrajectory, mcp.unasked),
  });
  return {
    sessionId: session.id,
    caseId: session.caseId,
    startedAt: session.startedAt,
    endedAt: session.lastAt,
    model: session.model,
    // A run with a failing call is a failing run, whatever the session policies say.
    verdict: [...session.verdicts.values()].some((call) => call.verdict === 'fail')
      ? 'fail'
      : result.verdict,
    score: result.score,
    turns: trajectory.counts.rounds,
    calls: trajectory.counts.calls,
    evaluated: result.evaluated,
    failures: result.failures,
    trajectory: trajectorySteps(trajectory, session.verdicts, mcp),
  };
}

/**
 * The run, compact: each call of the trajectory with its turn (from 1) and its call verdict
 * (`verdicts` by `<interaction id>:<call index>`), then the MCP calls no model call asked for.
 */
export function trajectorySteps(
  trajectory: Trajectory,
  verdicts: ReadonlyMap<string, CallVerdict>,
  mcp: SessionMcpCalls,
): TrajectoryStep[] {
  return [
    ...trajectory.calls.map((call): TrajectoryStep => {
      // Call policies score the agent's calls; a hosted call (the provider ran it) has no verdict of its own.
      const scored = call.hosted
        ? undefined
        : verdicts.get(`${trajectory.turns[call.turn]?.interactionId ?? ''}:${call.index}`);
      const outcome = outcomeOf(call);
      const server =
        call.hosted?.server ?? (call.id === undefined ? undefined : mcp.servers.get(call.id));
      return {
        turn: call.turn + 1,
        tool: call.name,
        arguments: call.argumentsRaw,
        verdict: scored?.verdict ?? 'unscored',
        failures: (scored?.failures ?? []).map(
          (failure) => `${failure.policy}: ${failure.message}`,
        ),
        ...(call.hosted ? { hosted: true } : {}),
        ...(server !== undefined ? { server } : {}),
        ...(outcome !== 'unknown' ? { outcome } : {}),
      };
    }),
    ...mcp.unasked.map((call) => unaskedStep(call, trajectory.turns)),
  ];
}
