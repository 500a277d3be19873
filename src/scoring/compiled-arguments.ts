import { jsonEqual } from './json-equal.js';
import { munkres } from 'munkres';
import type { JsonValue } from '../trace/trace.js';
import { isOmittedMarker, memberKeys } from './compare-arguments.js';
import { inferSchema } from './infer-schema.js';
import { matchAlone, matchValue } from './match/match-value.js';
import { looseString } from './normalise/loose-string.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { applyNamedNormalisers } from './normalise/apply-named-normalisers.js';
import { hasOwn, ownValue, setOwn } from './own.js';
import { ruleAt, rulePathOf, type RuleTable } from './rule-table.js';
import type {
  ArgumentRule,
  MatchingStrategy,
  Mismatch,
  ReasonCode,
  ScoreOptions,
} from './types.js';

type JsonObject = { readonly [key: string]: JsonValue };

/**
 * What one comparison writes: mismatches (only when explaining — a score-only pass, used to pair
 * parallel calls, allocates none) and the two verdicts that zero a call.
 */
export interface CompareState {
  readonly mismatches: Record<string, Mismatch> | undefined;
  readonly options: ScoreOptions;
  critical: boolean;
  unexpected: boolean;
}

export function newState(explain: boolean, options: ScoreOptions): CompareState {
  return { mismatches: explain ? {} : undefined, options, critical: false, unexpected: false };
}

/** Where an expectation's static parts come from: the rules and how extra arguments count. */
export interface TreeContext {
  readonly rules: RuleTable;
  readonly extra: 'ignore' | 'penalize' | 'fail';
  readonly options: ScoreOptions;
}

/**
 * The expected side of one comparison, prepared once: for an object, its members in scoring
 * order with their rule, weight, strategy and the expected value already normalised (named
 * normalisers applied, any_of values coerced by their own type, BFCL strings folded); for a value,
 * its matcher. The per-call work is a walk over these nodes. Mirrors `compare-arguments.ts`
 * step for step; a property test holds the results byte-identical.
 */
export interface ObjectNode {
  readonly prefix: string;
  readonly parentRulePath: string;
  /** Undefined when a glob rule that stands alone makes the members depend on the actual call. */
  readonly members: readonly MemberNode[] | undefined;
  readonly expectedRaw: JsonObject | undefined;
  readonly expectedValue: JsonObject;
  readonly context: TreeContext;
}

interface MemberNode {
  readonly key: string;
  readonly path: string;
  readonly rule: ArgumentRule | undefined;
  readonly weight: number;
  readonly strategy: MatchingStrategy;
  readonly expectedValue: JsonValue | undefined;
  readonly acceptable: AcceptableValues | undefined;
  readonly value: ValueNode | undefined;
}

interface AcceptableValues {
  readonly mayOmit: boolean;
  readonly values: readonly JsonValue[];
  readonly candidates: readonly {
    readonly schema: ReturnType<typeof inferSchema>;
    readonly node: ValueNode;
  }[];
}

interface ValueNode {
  readonly path: string;
  readonly strategy: MatchingStrategy;
  readonly rule: ArgumentRule | undefined;
  /** After the rule's named normalisers. */
  readonly expected: JsonValue;
  readonly object: ObjectNode | undefined;
  readonly items: readonly ValueNode[] | undefined;
  /** loose_string: the expected string folded once. */
  readonly folded: string | undefined;
}

export function objectNode(
  expectedRaw: JsonValue | undefined,
  expectedValue: JsonValue | undefined,
  path: string,
  context: TreeContext,
): ObjectNode {
  const value = asObject(expectedValue) ?? {};
  const prefix = path === '' ? '' : `${path}.`;
  const parentRulePath = rulePathOf(prefix);
  const raw = asObject(expectedRaw);
  const node = { prefix, parentRulePath, expectedRaw: raw, expectedValue: value, context };
  return {
    ...node,
    members: context.rules.globStandalone
      ? undefined
      : memberKeys(value, {}, context.rules, parentRulePath).map((key) => memberNode(node, key)),
  };
}

function memberNode(
  parent: Pick<ObjectNode, 'prefix' | 'expectedRaw' | 'expectedValue' | 'context'>,
  key: string,
): MemberNode {
  const path = `${parent.prefix}${key}`;
  const rule = ruleAt(parent.context.rules, rulePathOf(path));
  const strategy: MatchingStrategy = rule?.matching_strategy ?? (rule?.any_of ? 'any_of' : 'exact');
  const expectedRaw = ownValue(parent.expectedRaw, key);
  const expectedValue = ownValue(parent.expectedValue, key);
  const listed =
    rule?.any_of ?? (isOmittedMarker(expectedRaw) ? [expectedRaw as JsonValue] : undefined);
  let acceptable: AcceptableValues | undefined;
  if (listed && strategy !== 'ignore') {
    const values = listed.filter((value) => !isOmittedMarker(value));
    const inner = strategy === 'any_of' ? 'exact' : strategy;
    const candidates = values.map((value) => {
      const schema = inferSchema(value);
      return {
        schema,
        node: valueNode(normaliseBySchema(value, schema, false), inner, path, rule, parent.context),
      };
    });
    acceptable = { mayOmit: listed.some(isOmittedMarker), values, candidates };
  }
  const value =
    expectedValue === undefined || acceptable || strategy === 'ignore'
      ? undefined
      : valueNode(expectedValue, strategy, path, rule, parent.context);
  return { key, path, rule, weight: rule?.weight ?? 1, strategy, expectedValue, acceptable, value };
}

function valueNode(
  expectedValue: JsonValue,
  strategy: MatchingStrategy,
  path: string,
  rule: ArgumentRule | undefined,
  context: TreeContext,
): ValueNode {
  const expected = rule?.normalise
    ? applyNamedNormalisers(expectedValue, rule, context.options.normalisers)
    : expectedValue;
  const structural = strategy === 'exact' || strategy === 'any_of';
  const object =
    structural && asObject(expected) ? objectNode(expected, expected, path, context) : undefined;
  const items =
    structural && Array.isArray(expected)
      ? expected.map((item, index) =>
          valueNode(item, 'exact', `${path}[${index}]`, undefined, context),
        )
      : undefined;
  return {
    path,
    strategy,
    rule,
    expected,
    object,
    items,
    folded:
      strategy === 'loose_string' && typeof expected === 'string'
        ? looseString(expected)
        : undefined,
  };
}

/** The compiled `compareObject`: the same score, the same mismatches (when explaining). */
export function compareCompiled(
  node: ObjectNode,
  actualRaw: JsonValue | undefined,
  actualValue: JsonValue | undefined,
  state: CompareState,
): number {
  const actual = asObject(actualValue) ?? {};
  const raw = asObject(actualRaw);
  const { context } = node;
  const members =
    node.members ??
    memberKeys(node.expectedValue, actual, context.rules, node.parentRulePath).map((key) =>
      memberNode(node, key),
    );
  let total = 0;
  let weights = 0;
  for (const member of members) {
    weights += member.weight;
    total +=
      member.weight *
      compareMember(member, ownValue(actual, member.key), hasOwn(raw, member.key), state);
  }
  if (context.extra === 'ignore') return weights === 0 ? 1 : total / weights;
  for (const key in actual) {
    // for…in without allocating a key list (the common call has no extra argument); own keys only, in insertion order as Object.keys gives them.
    if (!Object.hasOwn(actual, key) || isMember(members, key)) continue;
    const path = `${node.prefix}${key}`;
    if (ruleAt(context.rules, rulePathOf(path))?.matching_strategy === 'ignore') continue;
    record(
      state,
      path,
      undefined,
      ownValue(actual, key),
      'unexpected_argument',
      'exact',
      undefined,
      undefined,
    );
    if (context.extra === 'fail') state.unexpected = true;
    weights += 1;
  }
  return weights === 0 ? 1 : total / weights;
}

function isMember(members: readonly MemberNode[], key: string): boolean {
  for (const member of members) if (member.key === key) return true;
  return false;
}

function compareMember(
  member: MemberNode,
  actualValue: JsonValue | undefined,
  actualPresent: boolean,
  state: CompareState,
): number {
  const { strategy, rule, path, acceptable } = member;
  if (strategy === 'ignore') return 1;
  if (acceptable) {
    if (!actualPresent)
      return acceptable.mayOmit
        ? 1
        : record(
            state,
            path,
            acceptable.values[0],
            undefined,
            'missing_argument',
            strategy,
            rule,
            undefined,
          );
    if (acceptable.values.length === 0)
      return record(
        state,
        path,
        undefined,
        actualValue,
        'must_be_omitted',
        strategy,
        rule,
        undefined,
      );
    let schema: ReturnType<typeof inferSchema> | null = null;
    let actual: JsonValue = null;
    for (const candidate of acceptable.candidates) {
      // Inferred leaf schemas are shared objects: consecutive values of one type coerce the actual value once.
      if (candidate.schema !== schema || schema === null) {
        schema = candidate.schema;
        actual = normaliseBySchema(actualValue as JsonValue, schema, false);
      }
      if (compareValue(candidate.node, actual, newState(false, state.options)) === 1) return 1;
    }
    const values = acceptable.values;
    return record(
      state,
      path,
      values.length === 1 ? values[0] : [...values],
      actualValue,
      'value_mismatch',
      strategy,
      rule,
      `none of ${values.length} acceptable value(s)`,
    );
  }
  if (actualValue === undefined)
    return record(
      state,
      path,
      member.expectedValue,
      undefined,
      'missing_argument',
      strategy,
      rule,
      undefined,
    );
  if (member.value === undefined) {
    const actual = rule?.normalise
      ? applyNamedNormalisers(actualValue, rule, state.options.normalisers)
      : actualValue;
    const match = matchAlone(strategy, actual, rule ?? {});
    return match.matched
      ? 1
      : record(
          state,
          path,
          undefined,
          actual,
          match.typeMismatch ? 'type_mismatch' : 'value_mismatch',
          strategy,
          rule,
          match.detail,
        );
  }
  return compareValue(member.value, actualValue, state);
}

function compareValue(node: ValueNode, actualValue: JsonValue, state: CompareState): number {
  const { rule, expected, strategy } = node;
  const actual = rule?.normalise
    ? applyNamedNormalisers(actualValue, rule, state.options.normalisers)
    : actualValue;
  if (node.object && asObject(actual)) return compareCompiled(node.object, actual, actual, state);
  if (node.items && Array.isArray(actual)) return compareItems(node, node.items, actual, state);
  if (strategy === 'exact' || strategy === 'any_of') {
    if (jsonEqual(expected, actual)) return 1;
    return record(state, node.path, expected, actual, 'value_mismatch', strategy, rule, undefined);
  }
  if (node.folded !== undefined && typeof actual === 'string')
    return node.folded === looseString(actual)
      ? 1
      : record(state, node.path, expected, actual, 'value_mismatch', strategy, rule, undefined);
  const match = matchValue(strategy, expected, actual, rule ?? {}, state.options.embeddings);
  if (match.matched) return 1;
  return record(
    state,
    node.path,
    expected,
    actual,
    match.unavailable
      ? 'embedding_unavailable'
      : match.typeMismatch
        ? 'type_mismatch'
        : 'value_mismatch',
    strategy,
    rule,
    match.detail,
  );
}

function compareItems(
  node: ValueNode,
  items: readonly ValueNode[],
  actual: readonly JsonValue[],
  state: CompareState,
): number {
  const expected = node.expected as readonly JsonValue[];
  const longer = Math.max(items.length, actual.length);
  if (longer === 0) return 1;
  let total = 0;
  if (node.rule?.unordered) {
    if (items.length > 0 && actual.length > 0) {
      const cost = items.map((item) =>
        actual.map(
          (candidate) => 1 - compareValue(item, candidate, newState(false, state.options)),
        ),
      );
      for (const [i, j] of munkres(cost) as [number, number][])
        total += compareValue(items[i] as ValueNode, actual[j] as JsonValue, state);
    }
  } else {
    const shorter = Math.min(items.length, actual.length);
    for (let i = 0; i < shorter; i++)
      total += compareValue(items[i] as ValueNode, actual[i] as JsonValue, state);
  }
  if (items.length !== actual.length)
    record(
      state,
      node.path,
      expected as JsonValue,
      actual as JsonValue,
      'value_mismatch',
      'exact',
      node.rule,
      `${items.length} element(s) expected, ${actual.length} given`,
    );
  return total / longer;
}

function record(
  state: CompareState,
  path: string,
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  reason: ReasonCode,
  strategy: MatchingStrategy,
  rule: ArgumentRule | undefined,
  detail: string | undefined,
): number {
  if (state.mismatches)
    setOwn(state.mismatches, path, {
      expected,
      actual,
      reason,
      strategy,
      score: 0,
      ...(detail !== undefined ? { detail } : {}),
    });
  if (rule?.critical) state.critical = true;
  return 0;
}

function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
