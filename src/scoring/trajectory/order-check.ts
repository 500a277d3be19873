import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';
import type { ScoreOptions } from '../types.js';
import { finishCheck } from './finish-check.js';
import { expectationObject, matchCall, toolLabel } from './match-expectation.js';
import type {
  CallExpectation,
  CallExpectationObject,
  ExpectationChains,
  TrajectoryReason,
} from './types.js';

/** `[A, B]` or `[[A, B], [C, D]]` → the chains, each a list of expectations. */
export function chainsOf(chains: ExpectationChains): readonly (readonly CallExpectationObject[])[] {
  const lists: readonly (readonly CallExpectation[])[] = chains.every((item) => Array.isArray(item))
    ? (chains as readonly (readonly CallExpectation[])[])
    : [chains as readonly CallExpectation[]];
  return lists.map((list) => list.map(expectationObject));
}

/**
 * `before: [A, B, C]`: for each neighbouring pair, if B was called, some call matching A came in
 * an earlier round than the first call matching B. Strictly earlier: calls made in one parallel
 * round cannot have used each other's results, so they are not "before" each other. A pair whose
 * second call never happened holds (require the call itself with `calls`).
 * `never_before: [A, B]` (promptfoo's negated tool sequence): no call matching A came in an
 * earlier round than a call matching B — "never refund before lookup" is `[refund, lookup]`.
 */
export function orderCheck(
  before: ExpectationChains | undefined,
  trajectory: Trajectory,
  options: ScoreOptions,
  neverBefore?: ExpectationChains,
): ReturnType<typeof finishCheck> {
  const pairsOf = (chains: ExpectationChains | undefined) =>
    chains === undefined
      ? []
      : chainsOf(chains).flatMap((chain) =>
          chain
            .slice(1)
            .map((later, index) => [chain[index] as CallExpectationObject, later] as const),
        );
  // Round numbers count from 1, as every report shows them (the trajectory's own `turn` is an index).
  const turnsOf = (expectation: CallExpectationObject): number[] =>
    trajectory.calls
      .filter((call) => matchCall(expectation, call, options).matches)
      .map((call) => call.turn + 1);
  const problems: string[] = [];
  const reasons = new Set<TrajectoryReason>();
  const outcomes: { [key: string]: JsonValue }[] = [];
  for (const [earlier, later] of pairsOf(before)) {
    const laterTurn = turnsOf(later)[0];
    const earlierTurn = turnsOf(earlier)[0];
    const holds = laterTurn === undefined || (earlierTurn !== undefined && earlierTurn < laterTurn);
    if (!holds) {
      reasons.add('out_of_order');
      problems.push(
        earlierTurn === undefined
          ? `${toolLabel(later)} was called (round ${laterTurn}) without ${toolLabel(earlier)} before it`
          : `${toolLabel(earlier)} (first in round ${earlierTurn}) did not come before ${toolLabel(later)} (round ${laterTurn})`,
      );
    }
    outcomes.push({
      before: toolLabel(earlier),
      after: toolLabel(later),
      holds,
      before_round: earlierTurn ?? null,
      after_round: laterTurn ?? null,
    });
  }
  for (const [first, second] of pairsOf(neverBefore)) {
    const firstTurn = turnsOf(first)[0];
    const secondTurn = turnsOf(second).at(-1);
    const holds = firstTurn === undefined || secondTurn === undefined || firstTurn >= secondTurn;
    if (!holds) {
      reasons.add('forbidden_order');
      problems.push(
        `${toolLabel(first)} (round ${firstTurn}) came before ${toolLabel(second)} (round ${secondTurn}), which must never happen`,
      );
    }
    outcomes.push({
      never_before: toolLabel(first),
      after: toolLabel(second),
      holds,
      before_round: firstTurn ?? null,
      after_round: secondTurn ?? null,
    });
  }
  const held = outcomes.filter((outcome) => outcome['holds'] === true).length;
  return finishCheck(
    'order',
    reasons,
    outcomes.length === 0 ? 1 : held / outcomes.length,
    problems,
    { pairs: outcomes },
  );
}
