import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';
import type { ScoreOptions } from '../types.js';
import { finishCheck } from './finish-check.js';
import { matchCall, toolLabel } from './match-expectation.js';
import { maximumMatching } from './maximum-matching.js';
import { chainsOf } from './order-check.js';
import type { CheckResult, ExpectationChains, TrajectoryReason } from './types.js';

/**
 * `same_round: [A, B]` (agentevals' parallel grouping): one round holds a call matching each
 * member, one call per member — the calls were made in parallel. Each group is met by the first
 * round that meets it.
 */
export function groupingCheck(
  groups: ExpectationChains,
  trajectory: Trajectory,
  options: ScoreOptions,
): CheckResult {
  const problems: string[] = [];
  const outcomes = chainsOf(groups).map((group) => {
    const turn = trajectory.turns.find((candidate) =>
      maximumMatching(
        group.length,
        candidate.calls.length,
        (member, column) =>
          matchCall(
            group[member] as (typeof group)[number],
            candidate.calls[column] as (typeof candidate.calls)[number],
            options,
          ).matches,
      ).every((column) => column !== null),
    );
    if (!turn) problems.push(`no round made ${group.map(toolLabel).join(' and ')} together`);
    return { tools: group.map(toolLabel), round: turn?.index ?? null };
  });
  const met = outcomes.filter((outcome) => outcome.round !== null).length;
  return finishCheck(
    'grouping',
    new Set<TrajectoryReason>(met < outcomes.length ? ['not_same_round'] : []),
    outcomes.length === 0 ? 1 : met / outcomes.length,
    problems,
    { groups: outcomes as unknown as JsonValue },
  );
}
