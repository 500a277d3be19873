import type { JsonSchema, JsonValue } from '../trace/trace.js';
import {
  combinePairs,
  finish,
  messages,
  nothingCalled,
  nothingExpected,
  type PairScore,
} from './combine-pairs.js';
import { compareObject, newWalk } from './compare-arguments.js';
import { ownValue, setOwn } from './own.js';
import { nameMatches, ruleTable } from './rule-table.js';
import { equalAfterNormalising } from './equal-after-normalising.js';
import { inferSchema } from './infer-schema.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { parseCallArguments } from './parse-arguments.js';
import { resolvePlaceholders } from './placeholders.js';
import type { ActualCall, ExpectedCall, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { extraPolicyFor, undeclaredArguments, undeclaredMismatch } from './undeclared-arguments.js';
import { schemaViolation } from './validate-arguments.js';

/**
 * The reference scorer: every call prepared from the raw case, nothing compiled or cached across
 * calls. `scoreCall` scores a case with it the first time it sees the case (first-sight.ts) and
 * runs the compiled case from then on, which must give byte-identical results; this one is what
 * the property test and the benchmark hold it against. Takes valid cases only (the public
 * `scoreCall` checks them).
 */
export function scoreCallReference(
  testCase: TestCase,
  actualCalls: readonly ActualCall[],
  options: ScoreOptions = {},
): ScoreResult {
  const now = options.now ?? new Date();
  const expectedCalls: readonly ExpectedCall[] =
    testCase.expected_calls ??
    (testCase.expected_tool !== undefined && testCase.expected_tool !== null
      ? [testCase as ExpectedCall]
      : []);
  const threshold = testCase.pass_threshold ?? 1;
  const policy = testCase.multiple_calls ?? 'penalize';
  if (expectedCalls.length === 0) return nothingExpected(actualCalls.length, threshold);
  if (actualCalls.length === 0) return nothingCalled(expectedCalls.length, threshold);

  const [onlyExpected] = expectedCalls;
  if (expectedCalls.length === 1 && actualCalls.length === 1 && onlyExpected) {
    // The common case (one call, one expectation) needs no assignment: score the pair directly.
    const pair = scorePair(
      testCase,
      onlyExpected,
      actualCalls[0] as ActualCall,
      options,
      now,
      undefined,
    );
    return finish(
      pair.score,
      pair.mismatches,
      [...pair.reasons],
      [0],
      [pair.tool],
      0,
      threshold,
      pair.message,
    );
  }
  const prepared = new Map<object, PreparedExpectation>();
  const pairs = expectedCalls.map((expected) =>
    actualCalls.map((actual) => scorePair(testCase, expected, actual, options, now, prepared)),
  );
  return combinePairs(
    expectedCalls.length,
    actualCalls.length,
    policy,
    threshold,
    pairs.map((row) => row.map((pair) => pair.score)),
    (row, column) => pairs[row]?.[column] as PairScore,
  );
}

function scorePair(
  testCase: TestCase,
  expected: ExpectedCall,
  actual: ActualCall,
  options: ScoreOptions,
  now: Date,
  prepared: Map<object, PreparedExpectation> | undefined,
): PairScore {
  const named =
    typeof expected.expected_tool === 'string'
      ? nameMatches(expected.expected_tool, actual.name)
      : expected.expected_tool.some((tool) => nameMatches(tool, actual.name));
  const candidates: {
    readonly arguments?: ExpectedCall['arguments'];
    readonly rules?: ExpectedCall['rules'];
  }[] = named ? [expected] : [];
  for (const alternative of expected.alternatives ?? [])
    if (nameMatches(alternative.tool, actual.name)) candidates.push(alternative);
  if (candidates.length === 0) {
    const tools =
      typeof expected.expected_tool === 'string'
        ? expected.expected_tool
        : expected.expected_tool.join(' or ');
    return {
      score: 0,
      mismatches: {},
      reasons: ['wrong_tool'],
      tool: null,
      message: `${messages.wrong_tool}: expected ${tools}, got ${actual.name}`,
    };
  }
  const parsed = parseCallArguments(actual);
  if (!parsed.ok)
    return {
      score: 0,
      mismatches: {},
      reasons: ['invalid_json'],
      tool: actual.name,
      message: parsed.error,
    };

  let best: PairScore | undefined;
  for (const candidate of candidates) {
    // The case's own schema is the more specific: it wins over the suite's or the captured request's.
    const declared =
      ownValue(testCase.schemas, actual.name) ?? ownValue(options.schemas, actual.name);
    const extra = extraPolicyFor(testCase.extra_arguments, declared);
    // Without a schema to validate against or rules to apply, a call that matches needs no explaining: answer it in one walk.
    if (
      !declared &&
      isEmpty(candidate.rules) &&
      equalAfterNormalising(candidate.arguments ?? noArguments, parsed.value, extra)
    )
      return { score: 1, mismatches: {}, reasons: [], tool: actual.name, message: null };
    const {
      resolved: expectedArguments,
      schema,
      normalised: expectedValue,
    } = prepareExpectation(candidate.arguments ?? noArguments, declared, now, prepared);
    const actualValue = normaliseBySchema(parsed.value, schema, true);
    if (declared) {
      const violation = schemaViolation(declared, actualValue);
      if (violation) {
        const result: PairScore = {
          score: 0,
          mismatches: {},
          reasons: ['schema_violation'],
          tool: actual.name,
          message: `${messages.schema_violation}: ${violation}`,
        };
        if (!best) best = result;
        continue;
      }
    }
    const walk = newWalk(
      ruleTable(candidate.rules),
      extra,
      options.normalisers,
      options.embeddings,
    );
    const raw = compareObject(
      { raw: expectedArguments, value: expectedValue },
      { raw: parsed.value as JsonValue, value: actualValue },
      '',
      walk,
    );
    if (declared && (testCase.extra_arguments ?? 'schema') === 'schema')
      for (const key of undeclaredArguments(
        parsed.value,
        candidate.arguments ?? noArguments,
        ruleTable(candidate.rules),
        declared,
      )) {
        setOwn(walk.mismatches, key, undeclaredMismatch(ownValue(parsed.value, key)));
        walk.unexpected = true;
      }
    const reasons = new Set(Object.values(walk.mismatches).map((mismatch) => mismatch.reason));
    if (walk.critical) reasons.add('critical_mismatch');
    const score = walk.critical || walk.unexpected ? 0 : raw;
    const first = [...reasons].sort()[0];
    const result: PairScore = {
      score,
      mismatches: walk.mismatches,
      reasons: [...reasons],
      tool: actual.name,
      message: first ? messages[first] : null,
    };
    if (!best || result.score > best.score) best = result;
  }
  return best as PairScore;
}

const noArguments: { readonly [name: string]: JsonValue } = {};

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
function prepareExpectation(
  args: { readonly [name: string]: JsonValue },
  declared: JsonSchema | undefined,
  now: Date,
  prepared: Map<object, PreparedExpectation> | undefined,
): PreparedExpectation {
  const cached = prepared?.get(args);
  if (cached && cached.declared === declared) return cached;
  const resolved = resolvePlaceholders(args, now);
  const schema = declared ?? inferSchema(resolved);
  const entry = {
    declared,
    resolved,
    schema,
    normalised: normaliseBySchema(resolved, schema, true),
  };
  prepared?.set(args, entry);
  return entry;
}

function isEmpty(rules: ExpectedCall['rules']): boolean {
  return rules === undefined || Object.keys(rules).length === 0;
}
