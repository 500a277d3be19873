import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { combinePairs, finish, messages, type PairScore } from './combine-pairs.js';
import { compareCompiled, newState, objectNode, type ObjectNode } from './compiled-arguments.js';
import { compileSchema } from './compile-schema.js';
import { equalAfterNormalising } from './equal-after-normalising.js';
import { inferSchema } from './infer-schema.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { ownValue } from './own.js';
import { parseCallArguments, type ParsedCallArguments } from './parse-arguments.js';
import { hasPlaceholder, resolvePlaceholders } from './placeholders.js';
import { globPattern, isGlob, ruleTable, type RuleTable } from './rule-table.js';
import type { ActualCall, ExpectedCall, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { checkTestCase, invalid, isRecord } from './validate-case.js';
import { schemaCompileError, schemaViolation } from './validate-arguments.js';

/**
 * A test case compiled once into a reusable scorer: checked whole (unknown keys, rules that need
 * a value, schemas that do not compile), tool names bound to matchers, rules resolved into a
 * table, and per schema and clock the expectation normalised into a tree of prepared nodes. What
 * `scoreCall` runs; results are byte-identical to `scoreCallReference`.
 */
export interface CompiledCase {
  score(actualCalls: readonly ActualCall[], options: ScoreOptions): ScoreResult;
}

/** Compiled cases by case object: a case is read once, however often it is scored (treat scored cases as immutable). */
const compiled = new WeakMap<object, CompiledCase>();

export function compileCase(testCase: TestCase, where = caseLabel(testCase)): CompiledCase {
  const known = compiled.get(testCase);
  if (known) return known;
  checkTestCase(testCase, where);
  const made = build(testCase, where);
  compiled.set(testCase, made);
  return made;
}

function caseLabel(testCase: TestCase): string {
  const id =
    typeof testCase === 'object' && testCase !== null
      ? (testCase as { test_id?: unknown }).test_id
      : undefined;
  return typeof id === 'string' ? `test case "${id}":` : 'test case:';
}

/** The expected arguments and rules of one acceptable call (the expected call itself, or an alternative), with its trees. */
interface Candidate {
  readonly accepts: (name: string) => boolean;
  readonly arguments: { readonly [name: string]: JsonValue };
  readonly rules: RuleTable;
  readonly ruleless: boolean;
  readonly clockBound: boolean;
  readonly namedNormalisers: boolean;
  /** Trees by declared schema (`undefined`: inferred), for the last clock and normalisers seen. */
  readonly trees: WeakMap<JsonSchema, Tree>;
  inferred: Tree | undefined;
}

interface Tree {
  readonly now: number;
  readonly normalisers: ScoreOptions['normalisers'];
  readonly schema: JsonSchema | undefined;
  /** The schema's prepared normaliser, and (declared schemas) its prepared validity check. */
  readonly normalise: (value: JsonValue) => JsonValue;
  readonly check: ((value: JsonValue) => boolean) | undefined;
  readonly root: ObjectNode;
}

interface Expectation {
  readonly named: (name: string) => boolean;
  readonly label: string;
  readonly self: Candidate;
  readonly selfOnly: readonly Candidate[];
  readonly alternatives: readonly Candidate[];
}

const noArguments: { readonly [name: string]: JsonValue } = {};

function nameMatcher(names: readonly string[]): (name: string) => boolean {
  const exact = new Set(names.filter((name) => !isGlob(name)));
  const globs = names.filter(isGlob).map(globPattern);
  return globs.length === 0
    ? (name) => exact.has(name)
    : (name) => exact.has(name) || globs.some((glob) => glob.test(name));
}

function candidate(
  accepts: (name: string) => boolean,
  args: ExpectedCall['arguments'],
  rules: ExpectedCall['rules'],
): Candidate {
  const table = ruleTable(rules);
  const values = args ?? noArguments;
  const ruleless = rules === undefined || Object.keys(rules).length === 0;
  return {
    accepts,
    arguments: values,
    rules: table,
    ruleless,
    clockBound: hasPlaceholder(values),
    namedNormalisers: Object.values(rules ?? {}).some((rule) => rule.normalise !== undefined),
    trees: new WeakMap(),
    inferred: undefined,
  };
}

function build(testCase: TestCase, where: string): CompiledCase {
  const expectedCalls: readonly ExpectedCall[] =
    testCase.expected_calls ??
    (testCase.expected_tool !== undefined && testCase.expected_tool !== null
      ? [testCase as ExpectedCall]
      : []);
  const expectations: Expectation[] = expectedCalls.map((call) => {
    const names =
      typeof call.expected_tool === 'string' ? [call.expected_tool] : call.expected_tool;
    const named = nameMatcher(names);
    const self = candidate(named, call.arguments, call.rules);
    return {
      named,
      label: names.join(' or '),
      self,
      selfOnly: [self],
      alternatives: (call.alternatives ?? []).map((alternative) =>
        candidate(nameMatcher([alternative.tool]), alternative.arguments, alternative.rules),
      ),
    };
  });
  const threshold = testCase.pass_threshold ?? 1;
  const policy = testCase.multiple_calls ?? 'penalize';
  const extra = testCase.extra_arguments ?? 'fail';
  const caseSchemas = testCase.schemas;

  /** The tree of a candidate under a schema, clock and normalisers: built once, then reused. */
  const treeOf = (
    entry: Candidate,
    declared: JsonSchema | undefined,
    tool: string,
    options: ScoreOptions,
    now: number,
  ): Tree => {
    const cached = declared === undefined ? entry.inferred : entry.trees.get(declared);
    if (
      cached &&
      (!entry.clockBound || cached.now === now) &&
      (!entry.namedNormalisers || cached.normalisers === options.normalisers)
    )
      return cached;
    if (declared !== undefined && cached === undefined) {
      const at =
        ownValue(caseSchemas, tool) === declared
          ? `${where}.schemas.${tool}`
          : `scoreCall options.schemas.${tool}`;
      if (!isRecord(declared)) throw invalid(at, 'must be a JSON Schema object');
      const error = schemaCompileError(declared);
      if (error !== undefined) throw invalid(at, `the schema does not compile: ${error}`);
    }
    const resolved = resolvePlaceholders(entry.arguments, new Date(now));
    const schema = declared ?? inferSchema(resolved);
    const root = objectNode(resolved, normaliseBySchema(resolved, schema, true), '', {
      rules: entry.rules,
      extra,
      options,
    });
    const prepared = schema === undefined ? undefined : compileSchema(schema);
    const normalise = prepared
      ? prepared.normalise
      : (value: JsonValue) => normaliseBySchema(value, undefined, true);
    const tree = {
      now,
      normalisers: options.normalisers,
      schema,
      normalise,
      check: declared === undefined ? undefined : prepared?.valid,
      root,
    };
    if (declared === undefined) entry.inferred = tree;
    else entry.trees.set(declared, tree);
    return tree;
  };

  /** One expected call against one actual call; `explain: false` computes the score alone, allocating no explanation. */
  const scorePair = (
    expectation: Expectation,
    actual: PreparedActual,
    options: ScoreOptions,
    now: number,
    explain: boolean,
  ): PairScore => {
    const name = actual.call.name;
    const own = expectation.named(name);
    let candidates: readonly Candidate[] | undefined = own ? expectation.selfOnly : undefined;
    if (expectation.alternatives.length > 0) {
      const alternatives = expectation.alternatives.filter((alternative) =>
        alternative.accepts(name),
      );
      if (alternatives.length > 0)
        candidates = own ? [expectation.self, ...alternatives] : alternatives;
    }
    if (candidates === undefined)
      return explain
        ? {
            score: 0,
            mismatches: {},
            reasons: ['wrong_tool'],
            tool: null,
            message: `${messages.wrong_tool}: expected ${expectation.label}, got ${name}`,
          }
        : zero;
    const parsed = parsedOf(actual);
    if (!parsed.ok)
      return explain
        ? { score: 0, mismatches: {}, reasons: ['invalid_json'], tool: name, message: parsed.error }
        : zero;
    let best: PairScore | undefined;
    for (const entry of candidates) {
      const declared = ownValue(caseSchemas, name) ?? ownValue(options.schemas, name);
      if (
        !declared &&
        entry.ruleless &&
        equalAfterNormalising(entry.arguments, parsed.value, extra)
      )
        return explain ? { score: 1, mismatches: {}, reasons: [], tool: name, message: null } : one;
      const tree = treeOf(entry, declared, name, options, now);
      const normalised = normaliseActual(actual, tree, declared);
      if (normalised.violation !== undefined) {
        if (!best)
          best = explain
            ? {
                score: 0,
                mismatches: {},
                reasons: ['schema_violation'],
                tool: name,
                message: `${messages.schema_violation}: ${normalised.violation}`,
              }
            : zero;
        continue;
      }
      const state = newState(explain, options);
      const raw = compareCompiled(tree.root, parsed.value, normalised.value, state);
      const score = state.critical || state.unexpected ? 0 : raw;
      let result: PairScore;
      if (state.mismatches) {
        const reasons = new Set(Object.values(state.mismatches).map((mismatch) => mismatch.reason));
        if (state.critical) reasons.add('critical_mismatch');
        const first = [...reasons].sort()[0];
        result = {
          score,
          mismatches: state.mismatches,
          reasons: [...reasons],
          tool: name,
          message: first ? messages[first] : null,
        };
      } else result = { score, mismatches: noMismatches, reasons: [], tool: name, message: null };
      if (!best || result.score > best.score) best = result;
    }
    return best as PairScore;
  };

  return {
    score(actualCalls, options) {
      const now = (options.now ?? new Date()).getTime();
      if (expectations.length === 0) {
        const count = actualCalls.length;
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
      if (actualCalls.length === 0)
        return finish(
          0,
          {},
          ['missing_tool_call'],
          expectations.map(() => null),
          expectations.map(() => null),
          0,
          threshold,
          messages.missing_tool_call,
        );
      const actuals = actualCalls.map(prepareActual);
      const [only] = expectations;
      if (expectations.length === 1 && actualCalls.length === 1 && only) {
        const pair = scorePair(only, actuals[0] as PreparedActual, options, now, true);
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
      const scores = expectations.map((expectation) =>
        actuals.map((actual) => scorePair(expectation, actual, options, now, false).score),
      );
      const explained = new Map<number, PairScore>();
      return combinePairs(
        expectations.length,
        actuals.length,
        policy,
        threshold,
        scores,
        (row, column) => {
          const key = row * actuals.length + column;
          let pair = explained.get(key);
          if (!pair)
            explained.set(
              key,
              (pair = scorePair(
                expectations[row] as Expectation,
                actuals[column] as PreparedActual,
                options,
                now,
                true,
              )),
            );
          return pair;
        },
      );
    },
  };
}

const noMismatches = Object.freeze({}) as PairScore['mismatches'];
const zero: PairScore = {
  score: 0,
  mismatches: noMismatches,
  reasons: [],
  tool: null,
  message: null,
};
const one: PairScore = {
  score: 1,
  mismatches: noMismatches,
  reasons: [],
  tool: null,
  message: null,
};

/** An actual call, parsed once and normalised once per schema, however many expectations it is compared with. */
interface PreparedActual {
  readonly call: ActualCall;
  parsed: ParsedCallArguments | undefined;
  /** The last normalisation: most calls meet one schema only. */
  schema: JsonSchema | undefined | null;
  declared: JsonSchema | undefined;
  value: JsonValue;
  violation: string | undefined;
}

function prepareActual(call: ActualCall): PreparedActual {
  return {
    call,
    parsed: undefined,
    schema: null,
    declared: undefined,
    value: null,
    violation: undefined,
  };
}

function parsedOf(actual: PreparedActual): ParsedCallArguments {
  return (actual.parsed ??= parseCallArguments(actual.call));
}

function normaliseActual(
  actual: PreparedActual,
  tree: Tree,
  declared: JsonSchema | undefined,
): PreparedActual {
  if (actual.schema === tree.schema && actual.declared === declared) return actual;
  const parsed = parsedOf(actual);
  const sent = parsed.ok ? parsed.value : {};
  actual.schema = tree.schema;
  actual.declared = declared;
  actual.value = tree.normalise(sent);
  // The prepared check answers most calls; Ajv decides (and words) every call it does not pass, and schemas beyond the check.
  actual.violation =
    declared === undefined || tree.check?.(actual.value) === true
      ? undefined
      : schemaViolation(declared, actual.value);
  return actual;
}
