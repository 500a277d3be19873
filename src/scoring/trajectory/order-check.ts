import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';
import type { ScoreOptions } from '../types.js';
import { finishCheck } from './finish-check.js';
import { expectationObject, matchCall, toolLabel } from './match-expectation.js';
import type { CallExpectation, Expectations, TrajectoryReason } from './types.js';

/**
 * `before: [A, B, C]`: for each neighbouring pair, if B was called, some call matching A came in
 * an earlier turn than the first call matching B. Strictly earlier: calls made in one parallel
 * turn cannot have used each other's results, so they are not "before" each other. A pair whose
 * second call never happened holds (require the call itself with `calls`).
 */
export function orderCheck(before: NonNullable<Expectations['before']>, trajectory: Trajectory, options: ScoreOptions): ReturnType<typeof finishCheck> {
  const chains: readonly (readonly CallExpectation[])[] = before.every((item) => Array.isArray(item)) ? (before as readonly (readonly CallExpectation[])[]) : [before as readonly CallExpectation[]];
  const pairs = chains.flatMap((chain) => chain.slice(1).map((later, index) => [expectationObject(chain[index] as CallExpectation), expectationObject(later)] as const));
  // Turn numbers count from 1, as every report shows them (the trajectory's own `turn` is an index).
  const firstTurn = (expectation: ReturnType<typeof expectationObject>): number | undefined => {
    const turn = trajectory.calls.find((call) => matchCall(expectation, call, options).matches)?.turn;
    return turn === undefined ? undefined : turn + 1;
  };
  const problems: string[] = [];
  const outcomes = pairs.map(([earlier, later]) => {
    const laterTurn = firstTurn(later);
    const earlierTurn = firstTurn(earlier);
    const holds = laterTurn === undefined || (earlierTurn !== undefined && earlierTurn < laterTurn);
    if (!holds) problems.push(earlierTurn === undefined ? `${toolLabel(later)} was called (turn ${laterTurn}) without ${toolLabel(earlier)} before it` : `${toolLabel(earlier)} (first in turn ${earlierTurn}) did not come before ${toolLabel(later)} (turn ${laterTurn})`);
    return { before: toolLabel(earlier), after: toolLabel(later), holds, before_turn: earlierTurn ?? null, after_turn: laterTurn ?? null };
  });
  const held = outcomes.filter((outcome) => outcome.holds).length;
  return finishCheck('order', new Set<TrajectoryReason>(held < outcomes.length ? ['out_of_order'] : []), outcomes.length === 0 ? 1 : held / outcomes.length, problems, { pairs: outcomes as unknown as JsonValue });
}
