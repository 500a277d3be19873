import type { Trajectory, TrajectoryCall, Turn } from '../trace/trajectory.js';

/**
 * The part of a trajectory made of some of its rounds (indexes into `trajectory.turns`, in
 * order): those rounds renumbered from 0, their calls with steps renumbered from 0, counts and
 * final text of the part. What a conversation's turn is scored on, with the scorers a whole run
 * uses. User turns are not counted in a part (they belong to the conversation).
 */
export function sliceTrajectory(trajectory: Trajectory, rounds: readonly number[]): Trajectory {
  const calls: TrajectoryCall[] = [];
  const byTool = new Map<string, number>();
  const turns = rounds.flatMap((roundIndex, index): Turn[] => {
    const round = trajectory.turns[roundIndex];
    if (round === undefined) return [];
    const placed = round.calls.map((call): TrajectoryCall => {
      const moved = { ...call, turn: index, step: calls.length };
      calls.push(moved);
      byTool.set(call.name, (byTool.get(call.name) ?? 0) + 1);
      return moved;
    });
    return [{ ...round, index, calls: placed }];
  });
  return {
    sessionId: trajectory.sessionId,
    turns,
    calls,
    finalText: [...turns].reverse().find((turn) => turn.text !== '')?.text ?? '',
    // fromEntries defines own properties: a `__proto__` count stays a count.
    counts: { rounds: turns.length, calls: calls.length, byTool: Object.fromEntries(byTool) },
  };
}
