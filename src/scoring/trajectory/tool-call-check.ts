import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory, TrajectoryCall } from '../../trace/trajectory.js';
import type { ScoreOptions } from '../types.js';
import { finishCheck } from './finish-check.js';
import {
  expectationObject,
  matchTable,
  namesTool,
  refOf,
  toolLabel,
  type CallMatch,
} from './match-expectation.js';
import { maximumMatching } from './maximum-matching.js';
import type {
  CallExpectationObject,
  CallMode,
  CallRef,
  CheckResult,
  ExpectationOutcome,
  Expectations,
  NearMiss,
  TrajectoryReason,
} from './types.js';

interface Slot {
  readonly expectation: number;
  readonly occurrence: number;
}

/**
 * The tool call check: expected calls against the calls a run made, by mode. Expected calls are
 * consumed one-to-one by maximum bipartite matching, so two expectations are never met by one
 * call, and overlapping expectations in a parallel turn are paired the way that meets most.
 */
export function toolCallCheck(
  expectations: Expectations,
  trajectory: Trajectory,
  options: ScoreOptions,
): CheckResult {
  const mode: CallMode = expectations.mode ?? 'all';
  const expected = (expectations.calls ?? []).map(expectationObject);
  if (mode === 'never') return neverCheck(expected, trajectory, options);
  const calls = trajectory.calls;
  const table = matchTable(expected, calls, options);
  const slots: Slot[] = expected.flatMap((expectation, index) =>
    Array.from({ length: expectation.times ?? expectation.min ?? 1 }, (_, occurrence) => ({
      expectation: index,
      occurrence,
    })),
  );
  const reasons = new Set<TrajectoryReason>();
  const problems: string[] = [];
  const details: Record<string, JsonValue> = { mode };
  const threshold = expectations.pass_threshold;

  let assignment: (number | null)[];
  let score: number;
  if (mode === 'subset') {
    // Every call made must be one of the expected, within each expectation's `max`/`times`.
    const capacity = expected.flatMap((expectation, index) =>
      Array.from(
        { length: Math.min(expectation.times ?? expectation.max ?? calls.length, calls.length) },
        () => index,
      ),
    );
    const placed = maximumMatching(
      calls.length,
      capacity.length,
      (call, slot) => table[capacity[slot] as number]?.[call]?.matches === true,
    );
    const unexpected = calls.filter((_, call) => placed[call] === null);
    for (const call of unexpected)
      problems.push(`${call.name} (step ${call.step}) is not one of the expected calls`);
    if (unexpected.length > 0) reasons.add('unexpected_call');
    details['unexpected'] = unexpected.map(refOf) as unknown as JsonValue;
    return finishCheck(
      'calls',
      reasons,
      calls.length === 0 ? 1 : (calls.length - unexpected.length) / calls.length,
      problems,
      details,
      threshold,
    );
  }
  if (mode === 'ordered' || mode === 'exact')
    assignment = orderedMatching(slots, trajectory, table);
  else
    assignment = maximumMatching(
      slots.length,
      calls.length,
      (slot, call) => table[(slots[slot] as Slot).expectation]?.[call]?.matches === true,
    );

  const outcomes = slots.map((slot, index): ExpectationOutcome => {
    const column = assignment[index] ?? null;
    const expectation = expected[slot.expectation] as CallExpectationObject;
    return {
      expectation: slot.expectation,
      tool: toolLabel(expectation),
      occurrence: slot.occurrence,
      matched: column === null ? null : refOf(calls[column] as TrajectoryCall),
      closest: column === null ? closestMiss(table[slot.expectation] ?? [], calls) : null,
    };
  });
  details['expectations'] = outcomes as unknown as JsonValue;
  const met = outcomes.filter((outcome) => outcome.matched !== null).length;

  if (mode === 'any') {
    const fractions = expected.map((_, index) => {
      const own = outcomes.filter((outcome) => outcome.expectation === index);
      return own.length === 0
        ? 1
        : own.filter((outcome) => outcome.matched !== null).length / own.length;
    });
    score = expected.length === 0 ? 1 : Math.max(...fractions);
    if (score < 1) {
      reasons.add('missing_call');
      problems.push(`none of ${expected.map(toolLabel).join(', ')} was called as expected`);
    }
  } else {
    score = slots.length === 0 ? 1 : met / slots.length;
    for (const outcome of outcomes)
      if (outcome.matched === null) problems.push(missingMessage(outcome, mode));
    if (met < slots.length)
      reasons.add(
        mode === 'ordered' || mode === 'exact'
          ? outcomeReason(outcomes, table, calls)
          : 'missing_call',
      );
  }
  if (mode === 'exact' || mode === 'unordered') {
    const used = new Set(assignment.filter((column): column is number => column !== null));
    const unexpected = calls.filter((_, column) => !used.has(column));
    if (unexpected.length > 0) {
      reasons.add('unexpected_call');
      for (const call of unexpected)
        problems.push(
          `${call.name} (step ${call.step}) is not ${mode === 'exact' ? 'in the expected sequence' : 'one of the expected calls'}`,
        );
      score =
        slots.length === 0 && calls.length === 0 ? 1 : met / Math.max(slots.length, calls.length);
    }
    details['unexpected'] = unexpected.map(refOf) as unknown as JsonValue;
  }

  const excess = tooMany(expected, table);
  if (excess.length > 0) {
    reasons.add('too_many_calls');
    for (const { expectation, count, max } of excess)
      problems.push(
        `${toolLabel(expected[expectation] as CallExpectationObject)} was called ${count} times, at most ${max} expected`,
      );
  }
  details['excess'] = excess as unknown as JsonValue;
  if (expectations.unlisted === 'fail') {
    const unlisted = calls.filter(
      (call) => !expected.some((expectation) => namesTool(expectation, call.name)),
    );
    if (unlisted.length > 0) {
      reasons.add('unlisted_tool');
      problems.push(
        `unlisted tool(s) called: ${[...new Set(unlisted.map((call) => call.name))].join(', ')}`,
      );
    }
    details['unlisted'] = unlisted.map(refOf) as unknown as JsonValue;
  }
  return finishCheck('calls', reasons, score, problems, details, threshold);
}

/** `never`: no call — complete or cut off — matches any of the expectations. */
export function neverCheck(
  forbidden: readonly CallExpectationObject[],
  trajectory: Trajectory,
  options: ScoreOptions,
): CheckResult {
  const calls = trajectory.calls;
  const violations: { expectation: number; call: CallRef }[] = [];
  forbidden.forEach((expectation, index) => {
    calls.forEach((call) => {
      // An attempt counts: a forbidden call whose stream was cut was still attempted.
      if (matchTable([expectation], [{ ...call, complete: true }], options)[0]?.[0]?.matches)
        violations.push({ expectation: index, call: refOf(call) });
    });
  });
  const broken = new Set(violations.map((violation) => violation.expectation));
  const problems = violations.map(
    ({ expectation, call }) =>
      `forbidden call ${toolLabel(forbidden[expectation] as CallExpectationObject)} made at step ${call.step}`,
  );
  return finishCheck(
    'never',
    new Set<TrajectoryReason>(violations.length > 0 ? ['forbidden_call'] : []),
    forbidden.length === 0 ? 1 : 1 - broken.size / forbidden.length,
    problems,
    { violations: violations as unknown as JsonValue },
  );
}

/**
 * Slots in listed order against calls in turn order. Calls of one turn were made in parallel and
 * have no order among themselves, so a turn may meet several consecutive slots in any order.
 * Per turn, the longest run of next slots it can meet one-to-one is taken: meeting more slots
 * early never leaves fewer calls for the slots after.
 */
function orderedMatching(
  slots: readonly Slot[],
  trajectory: Trajectory,
  table: readonly (readonly CallMatch[])[],
): (number | null)[] {
  const assignment: (number | null)[] = slots.map(() => null);
  let next = 0;
  for (const turn of trajectory.turns) {
    if (next >= slots.length) break;
    const columns = turn.calls.map((call) => call.step);
    let best: (number | null)[] = [];
    for (let length = 1; next + length <= slots.length && length <= columns.length; length++) {
      const run = slots.slice(next, next + length);
      const matched = maximumMatching(
        run.length,
        columns.length,
        (slot, column) =>
          table[(run[slot] as Slot).expectation]?.[columns[column] as number]?.matches === true,
      );
      if (matched.some((column) => column === null)) break;
      best = matched;
    }
    best.forEach((column, offset) => {
      assignment[next + offset] = columns[column as number] as number;
    });
    next += best.length;
  }
  return assignment;
}

/** An unmet slot in an ordered check: out of order when a matching call exists at all, else missing. */
function outcomeReason(
  outcomes: readonly ExpectationOutcome[],
  table: readonly (readonly CallMatch[])[],
  calls: readonly TrajectoryCall[],
): TrajectoryReason {
  const unmet = outcomes.find((outcome) => outcome.matched === null);
  if (!unmet) return 'missing_call';
  return calls.some((_, column) => table[unmet.expectation]?.[column]?.matches)
    ? 'out_of_order'
    : 'missing_call';
}

function missingMessage(outcome: ExpectationOutcome, mode: CallMode): string {
  const which = `${outcome.tool}${outcome.occurrence > 0 ? ` (occurrence ${outcome.occurrence + 1})` : ''}`;
  if (!outcome.closest) return `${which} was not called`;
  if (outcome.closest.score === 1 && (mode === 'ordered' || mode === 'exact'))
    return `${which} was not called in the expected order`;
  return `${which} was not called as expected (closest: step ${outcome.closest.call.step}, score ${outcome.closest.score}${outcome.closest.reasons.length > 0 ? `, ${outcome.closest.reasons.join(', ')}` : ''})`;
}

/** The call to the expected tool that came closest, and why it fell short. */
function closestMiss(row: readonly CallMatch[], calls: readonly TrajectoryCall[]): NearMiss | null {
  let best: number | undefined;
  row.forEach((match, column) => {
    if (match.named && (best === undefined || match.score > (row[best] as CallMatch).score))
      best = column;
  });
  if (best === undefined) return null;
  const match = row[best] as CallMatch;
  return {
    call: refOf(calls[best] as TrajectoryCall),
    score: match.score,
    reasons: match.reasons,
    mismatches: match.mismatches,
  };
}

function tooMany(
  expected: readonly CallExpectationObject[],
  table: readonly (readonly CallMatch[])[],
): { expectation: number; count: number; max: number }[] {
  const excess: { expectation: number; count: number; max: number }[] = [];
  expected.forEach((expectation, index) => {
    const max = expectation.times ?? expectation.max;
    if (max === undefined) return;
    const count = (table[index] ?? []).filter((match) => match.matches).length;
    if (count > max) excess.push({ expectation: index, count, max });
  });
  return excess;
}
