import { munkres } from 'munkres';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { compareObject, newWalk } from './compare-arguments.js';
import { equalAfterNormalising } from './equal-after-normalising.js';
import { inferSchema } from './infer-schema.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { parseCallArguments } from './parse-arguments.js';
import { resolvePlaceholders } from './placeholders.js';
import type { ActualCall, ExpectedCall, Mismatch, ReasonCode, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { schemaViolation } from './validate-arguments.js';

/** One expected call scored against one actual call. */
interface PairScore {
  readonly score: number;
  readonly mismatches: Record<string, Mismatch>;
  readonly reasons: readonly ReasonCode[];
  readonly tool: string | null;
  readonly message: string | null;
}

const messages: Record<ReasonCode, string> = {
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
 * Scores the calls an agent made against a test case: the right tool(s), the right arguments
 * (after schema coercion and normalisation, matched per argument by its strategy, weighted),
 * explained per argument path. Parallel expected calls are paired with actual calls by the
 * maximum-weight one-to-one assignment, so the order calls arrive in never changes a score.
 * Pure and deterministic: the same input (and clock) gives byte-identical JSON.
 */
export function scoreCall(testCase: TestCase, actualCalls: readonly ActualCall[], options: ScoreOptions = {}): ScoreResult {
  const now = options.now ?? new Date();
  const expectedCalls: readonly ExpectedCall[] = testCase.expected_calls ?? (testCase.expected_tool !== undefined && testCase.expected_tool !== null ? [testCase as ExpectedCall] : []);
  const threshold = testCase.pass_threshold ?? 1;
  const policy = testCase.multiple_calls ?? 'penalize';
  if (expectedCalls.length === 0) {
    // Nothing expected: correct only when nothing was called.
    const extra = actualCalls.length;
    return finish(extra === 0 ? 1 : 0, {}, extra === 0 ? [] : ['extra_call'], [], [], extra, threshold, extra === 0 ? null : messages.extra_call);
  }
  if (actualCalls.length === 0) {
    return finish(0, {}, ['missing_tool_call'], expectedCalls.map(() => null), expectedCalls.map(() => null), 0, threshold, messages.missing_tool_call);
  }

  const [onlyExpected] = expectedCalls;
  if (expectedCalls.length === 1 && actualCalls.length === 1 && onlyExpected) {
    // The common case (one call, one expectation) needs no assignment: score the pair directly.
    const pair = scorePair(testCase, onlyExpected, actualCalls[0] as ActualCall, options, now, undefined);
    return finish(pair.score, pair.mismatches, [...pair.reasons], [0], [pair.tool], 0, threshold, pair.message);
  }
  const prepared = new Map<object, PreparedExpectation>();
  const pairs = expectedCalls.map((expected) => actualCalls.map((actual) => scorePair(testCase, expected, actual, options, now, prepared)));
  let assignment: (number | null)[];
  if (expectedCalls.length === 1 && policy === 'first') assignment = [0];
  else if (expectedCalls.length === 1) assignment = [bestIndex(pairs[0] ?? [])];
  else {
    const cost = pairs.map((row) => row.map((pair) => 1 - pair.score));
    assignment = expectedCalls.map(() => null);
    for (const [row, column] of munkres(cost) as [number, number][]) assignment[row] = column;
  }

  const mismatches: Record<string, Mismatch> = {};
  const reasons = new Set<ReasonCode>();
  let total = 0;
  let message: string | null = null;
  assignment.forEach((column, row) => {
    const pair = column === null ? undefined : pairs[row]?.[column];
    if (!pair) {
      reasons.add('missing_tool_call');
      message ??= messages.missing_tool_call;
      return;
    }
    total += pair.score;
    const prefix = expectedCalls.length > 1 ? `calls[${row}].` : '';
    for (const [path, mismatch] of Object.entries(pair.mismatches)) mismatches[`${prefix}${path}`] = mismatch;
    for (const reason of pair.reasons) reasons.add(reason);
    message ??= pair.message;
  });
  let score = total / expectedCalls.length;

  const used = new Set(assignment.filter((column): column is number => column !== null));
  const extra = actualCalls.length - used.size;
  if (extra > 0 && policy !== 'first' && policy !== 'best') {
    reasons.add('extra_call');
    message ??= messages.extra_call;
    if (policy === 'penalize') score *= expectedCalls.length / (expectedCalls.length + extra);
    if (policy === 'all') {
      // Every call must be a correct one: extra calls are scored against the expectation too.
      const extraScores = actualCalls.map((_, column) => column).filter((column) => !used.has(column)).map((column) => Math.max(...pairs.map((row) => row[column]?.score ?? 0)));
      score = (total + extraScores.reduce((sum, value) => sum + value, 0)) / (expectedCalls.length + extra);
    }
  }
  const matchedTools = assignment.map((column, row) => (column === null ? null : (pairs[row]?.[column]?.tool ?? null)));
  return finish(score, mismatches, [...reasons], assignment, matchedTools, extra, threshold, message);
}

function scorePair(testCase: TestCase, expected: ExpectedCall, actual: ActualCall, options: ScoreOptions, now: Date, prepared: Map<object, PreparedExpectation> | undefined): PairScore {
  const named = typeof expected.expected_tool === 'string' ? expected.expected_tool === actual.name : expected.expected_tool.includes(actual.name);
  const candidates: { readonly arguments?: ExpectedCall['arguments']; readonly rules?: ExpectedCall['rules'] }[] = named ? [expected] : [];
  for (const alternative of expected.alternatives ?? []) if (alternative.tool === actual.name) candidates.push(alternative);
  if (candidates.length === 0) {
    const tools = typeof expected.expected_tool === 'string' ? expected.expected_tool : expected.expected_tool.join(' or ');
    return { score: 0, mismatches: {}, reasons: ['wrong_tool'], tool: null, message: `${messages.wrong_tool}: expected ${tools}, got ${actual.name}` };
  }
  const parsed = parseCallArguments(actual);
  if (!parsed.ok) return { score: 0, mismatches: {}, reasons: ['invalid_json'], tool: actual.name, message: parsed.error };

  let best: PairScore | undefined;
  for (const candidate of candidates) {
    // The case's own schema is the more specific: it wins over the suite's or the captured request's.
    const declared = testCase.schemas?.[actual.name] ?? options.schemas?.[actual.name];
    // Without a schema to validate against or rules to apply, a call that matches needs no explaining: answer it in one walk.
    if (!declared && isEmpty(candidate.rules) && equalAfterNormalising(candidate.arguments ?? noArguments, parsed.value, testCase.extra_arguments ?? 'fail')) return { score: 1, mismatches: {}, reasons: [], tool: actual.name, message: null };
    const { resolved: expectedArguments, schema, normalised: expectedValue } = prepareExpectation(candidate.arguments ?? noArguments, declared, now, prepared);
    const actualValue = normaliseBySchema(parsed.value, schema, true);
    if (declared) {
      const violation = schemaViolation(declared, actualValue);
      if (violation) {
        const result: PairScore = { score: 0, mismatches: {}, reasons: ['schema_violation'], tool: actual.name, message: `${messages.schema_violation}: ${violation}` };
        if (!best) best = result;
        continue;
      }
    }
    const walk = newWalk(candidate.rules ?? noRules, testCase.extra_arguments ?? 'fail', options.normalisers, options.embeddings);
    const raw = compareObject({ raw: expectedArguments, value: expectedValue }, { raw: parsed.value as JsonValue, value: actualValue }, '', walk);
    const reasons = new Set(Object.values(walk.mismatches).map((mismatch) => mismatch.reason));
    if (walk.critical) reasons.add('critical_mismatch');
    const score = walk.critical || walk.unexpected ? 0 : raw;
    const first = [...reasons].sort()[0];
    const result: PairScore = { score, mismatches: walk.mismatches, reasons: [...reasons], tool: actual.name, message: first ? messages[first] : null };
    if (!best || result.score > best.score) best = result;
  }
  return best as PairScore;
}

const noArguments: { readonly [name: string]: JsonValue } = {};
const noRules: { readonly [path: string]: never } = {};

interface PreparedExpectation {
  readonly declared: JsonSchema | undefined;
  readonly resolved: JsonValue;
  readonly schema: JsonSchema | undefined;
  readonly normalised: JsonValue;
}
/**
 * Placeholders resolved, schema chosen (declared, else inferred from the expected values) and
 * the expected side normalised: once per expected call and clock, however many actual calls it
 * is compared with in one scoring (parallel calls compare every pair).
 */
function prepareExpectation(args: { readonly [name: string]: JsonValue }, declared: JsonSchema | undefined, now: Date, prepared: Map<object, PreparedExpectation> | undefined): PreparedExpectation {
  const cached = prepared?.get(args);
  if (cached && cached.declared === declared) return cached;
  const resolved = resolvePlaceholders(args, now);
  const schema = declared ?? inferSchema(resolved);
  const entry = { declared, resolved, schema, normalised: normaliseBySchema(resolved, schema, true) };
  prepared?.set(args, entry);
  return entry;
}

function isEmpty(rules: ExpectedCall['rules']): boolean {
  for (const _path in rules) return false;
  return true;
}

function bestIndex(row: readonly PairScore[]): number {
  let best = 0;
  row.forEach((pair, index) => {
    if (pair.score > (row[best]?.score ?? -1)) best = index;
  });
  return best;
}

function finish(score: number, mismatches: Record<string, Mismatch>, reasons: ReasonCode[], assignment: (number | null)[], matchedTools: (string | null)[], extra: number, threshold: number, message: string | null): ScoreResult {
  const rounded = Math.round(score * 1e9) / 1e9;
  const paths = Object.keys(mismatches);
  let sortedMismatches = mismatches;
  if (paths.length > 1) {
    sortedMismatches = {};
    for (const path of paths.sort()) sortedMismatches[path] = mismatches[path] as Mismatch;
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
