import { munkres } from 'munkres';
import { setOwn } from './own.js';
import type { CompareState } from './compiled-arguments.js';
import type { Mismatch, ReasonCode, ScoreResult, TestCase } from './types.js';

/** One expected call scored against one actual call. */
export interface PairScore {
  readonly score: number;
  readonly mismatches: Record<string, Mismatch>;
  readonly reasons: readonly ReasonCode[];
  readonly tool: string | null;
  readonly message: string | null;
}

export const messages: Record<ReasonCode, string> = {
  missing_tool_call: 'no tool call was made',
  wrong_tool: 'a different tool was called',
  invalid_json: 'the arguments are not valid JSON',
  schema_violation: "the arguments violate the tool's schema",
  missing_argument: 'a required argument is missing',
  unexpected_argument: 'an argument that was not expected was given',
  must_be_omitted: 'an argument that must be omitted was given',
  value_mismatch: 'an argument has the wrong value',
  type_mismatch: 'an argument has the wrong type',
  critical_mismatch: 'a critical argument mismatched',
  extra_call: 'more calls were made than expected',
  embedding_unavailable: 'a semantic rule had no embedding to compare',
};

/**
 * Parallel expected calls against the calls made, from the matrix of pair scores: the
 * assignment (Munkres on 1 − score, or the first/best call for a single expectation), the
 * explanations of the assigned pairs only (`pairAt`, asked for those alone), and the multiple-call
 * policy for the calls left over. Shared by the reference and the compiled scorer.
 */
export function combinePairs(
  expectedCount: number,
  actualCount: number,
  policy: NonNullable<TestCase['multiple_calls']>,
  threshold: number,
  scores: readonly (readonly number[])[],
  pairAt: (row: number, column: number) => PairScore,
): ScoreResult {
  let assignment: (number | null)[];
  if (expectedCount === 1 && policy === 'first') assignment = [0];
  else if (expectedCount === 1)
    assignment = [bestIndex(scores[0] ?? [], (column) => pairAt(0, column).tool !== null)];
  else assignment = perfectPairing(scores) ?? bestPairing(scores);

  const mismatches: Record<string, Mismatch> = {};
  const reasons = new Set<ReasonCode>();
  let total = 0;
  let message: string | null = null;
  assignment.forEach((column, row) => {
    const pair = column === null ? undefined : pairAt(row, column);
    if (!pair) {
      reasons.add('missing_tool_call');
      message ??= messages.missing_tool_call;
      return;
    }
    total += pair.score;
    const prefix = expectedCount > 1 ? `calls[${row}].` : '';
    for (const path in pair.mismatches)
      if (Object.hasOwn(pair.mismatches, path))
        setOwn(mismatches, `${prefix}${path}`, pair.mismatches[path] as Mismatch);
    for (const reason of pair.reasons) reasons.add(reason);
    message ??= pair.message;
  });
  let score = total / expectedCount;

  const used = new Set(assignment.filter((column): column is number => column !== null));
  const extra = actualCount - used.size;
  if (extra > 0 && policy !== 'first' && policy !== 'best') {
    reasons.add('extra_call');
    message ??= messages.extra_call;
    if (policy === 'penalize') score *= expectedCount / (expectedCount + extra);
    if (policy === 'all') {
      // Every call must be a correct one: extra calls are scored against the expectation too.
      const extraScores = Array.from({ length: actualCount }, (_, column) => column)
        .filter((column) => !used.has(column))
        .map((column) => Math.max(...scores.map((row) => row[column] ?? 0)));
      score =
        (total + extraScores.reduce((sum, value) => sum + value, 0)) / (expectedCount + extra);
    }
  }
  const matchedTools = assignment.map((column, row) =>
    column === null ? null : (pairAt(row, column).tool ?? null),
  );
  return finish(
    score,
    mismatches,
    [...reasons],
    assignment,
    matchedTools,
    extra,
    threshold,
    message,
  );
}

/** The maximum-weight one-to-one assignment: Munkres on 1 − score. */
export function bestPairing(scores: readonly (readonly number[])[]): (number | null)[] {
  const cost = scores.map((row) => row.map((score) => 1 - score));
  const assignment: (number | null)[] = scores.map(() => null);
  for (const [row, column] of munkres(cost) as [number, number][]) assignment[row] = column;
  return assignment;
}

/**
 * The assignment when every expected call has exactly one perfect partner and no two share one
 * (as many calls as expectations): then it is the only assignment of cost 0, every other costs
 * more, so Munkres would answer it too — the common passing parallel call needs no matrix solved.
 */
export function perfectPairing(scores: readonly (readonly number[])[]): number[] | undefined {
  const assignment: number[] = [];
  for (const row of scores) {
    if (row.length !== scores.length) return undefined;
    let partner = -1;
    for (let column = 0; column < row.length; column++) {
      if (row[column] !== 1) continue;
      if (partner !== -1) return undefined;
      partner = column;
    }
    if (partner === -1 || assignment.includes(partner)) return undefined;
    assignment.push(partner);
  }
  return assignment;
}

/**
 * The first best-scoring call; among calls tied with it, one of the expected tool when the first
 * is another tool — so a failing call of the right tool (an extra argument, a wrong value) is
 * explained as what it is, never as "a different tool was called" because a lookup came first.
 */
function bestIndex(row: readonly number[], named: (column: number) => boolean): number {
  let best = 0;
  row.forEach((score, index) => {
    if (score > (row[best] ?? -1)) best = index;
  });
  if (named(best)) return best;
  const tied = row.findIndex((score, index) => score === row[best] && named(index));
  return tied === -1 ? best : tied;
}

export function finish(
  score: number,
  mismatches: Record<string, Mismatch>,
  reasons: ReasonCode[],
  assignment: (number | null)[],
  matchedTools: (string | null)[],
  extra: number,
  threshold: number,
  message: string | null,
): ScoreResult {
  const rounded = Math.round(score * 1e9) / 1e9;
  const paths = Object.keys(mismatches);
  let sortedMismatches = mismatches;
  if (paths.length > 1) {
    sortedMismatches = {};
    for (const path of paths.sort()) setOwn(sortedMismatches, path, mismatches[path] as Mismatch);
  }
  return {
    is_correct: rounded >= threshold && !reasons.includes('critical_mismatch'),
    score: rounded,
    mismatches: sortedMismatches,
    error_message: message,
    reasons: reasons.length > 1 ? [...new Set(reasons)].sort() : reasons,
    details: { assignment, matched_tools: matchedTools, extra_calls: extra },
  };
}

/** A pair that matched with nothing to explain. */
export function cleanPair(tool: string): PairScore {
  return { score: 1, mismatches: {}, reasons: [], tool, message: null };
}

/** A walk's explanation: its mismatches, their reasons (and a critical one), the message of the first. */
export function explained(score: number, state: CompareState, tool: string): PairScore {
  const mismatches = state.mismatches;
  if (mismatches === undefined) return { score, mismatches: {}, reasons: [], tool, message: null };
  const reasons = new Set(Object.values(mismatches).map((mismatch) => mismatch.reason));
  if (state.critical) reasons.add('critical_mismatch');
  const first = [...reasons].sort()[0];
  return {
    score,
    mismatches,
    reasons: [...reasons],
    tool,
    message: first ? messages[first] : null,
  };
}

/** A case that expects no call: correct only when nothing was called. */
export function nothingExpected(count: number, threshold: number): ScoreResult {
  return finish(
    count === 0 ? 1 : 0,
    {},
    count === 0 ? [] : ['extra_call'],
    [],
    [],
    count,
    threshold,
    count === 0 ? null : messages.extra_call,
  );
}

/** Calls were expected and none was made. */
export function nothingCalled(expected: number, threshold: number): ScoreResult {
  const none = Array.from({ length: expected }, () => null);
  return finish(
    0,
    {},
    ['missing_tool_call'],
    none,
    [...none],
    0,
    threshold,
    messages.missing_tool_call,
  );
}
