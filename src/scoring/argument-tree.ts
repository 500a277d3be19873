import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { inferSchema } from './infer-schema.js';
import { asObject, isOmittedMarker, memberKeys, type JsonObject } from './member-keys.js';
import { applyNamedNormalisers } from './normalise/apply-named-normalisers.js';
import { looseEquals } from './normalise/loose-equals.js';
import { looseString } from './normalise/loose-string.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { ownValue } from './own.js';
import { ruleAt, rulePathOf, type RuleTable } from './rule-table.js';
import type { ArgumentRule, MatchingStrategy, ScoreOptions } from './types.js';

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
 * its matcher. The per-call work (compiled-arguments.ts) is a walk over these nodes. Mirrors
 * `compare-arguments.ts` step for step; a property test holds the results byte-identical.
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

export interface MemberNode {
  readonly key: string;
  readonly path: string;
  readonly rule: ArgumentRule | undefined;
  readonly weight: number;
  readonly strategy: MatchingStrategy;
  readonly expectedValue: JsonValue | undefined;
  readonly acceptable: AcceptableValues | undefined;
  readonly value: ValueNode | undefined;
}

export interface AcceptableValues {
  readonly mayOmit: boolean;
  readonly values: readonly JsonValue[];
  readonly candidates: readonly AcceptableValue[];
}

export interface AcceptableValue {
  readonly schema: JsonSchema | undefined;
  readonly node: ValueNode;
  /**
   * How the walk may decide the (schema-normalised) actual value is this one without walking:
   * `leaf` (equal, or equal once coerced by the value's own schema), `folded` (BFCL strings
   * equal once folded), or `walk`. Decided exactly as the walk decides it.
   */
  readonly accepts: 'leaf' | 'folded' | 'walk';
}

export interface ValueNode {
  readonly path: string;
  readonly strategy: MatchingStrategy;
  readonly rule: ArgumentRule | undefined;
  /** After the rule's named normalisers. */
  readonly expected: JsonValue;
  readonly object: ObjectNode | undefined;
  readonly items: readonly ValueNode[] | undefined;
  /** loose_string: the expected string folded once. */
  readonly folded: string | undefined;
  /**
   * The match that needs no walk (the walk is skipped when it holds): `same` (a leaf equal to the
   * expected one), `folded` (a string equal to it once folded), `lowered` (equal ignoring case).
   */
  readonly quick: 'same' | 'folded' | 'lowered' | undefined;
  /** ignore_case: the expected string lower-cased once. */
  readonly lowered: string | undefined;
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

export function memberNode(
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
    const candidates = values.map((value): AcceptableValue => {
      const schema = inferSchema(value);
      const node = valueNode(
        normaliseBySchema(value, schema, false),
        inner,
        path,
        rule,
        parent.context,
      );
      return { schema, node, accepts: acceptsAlone(node, schema) };
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
    structural && Array.isArray(expected) ? itemNodes(expected, path, context) : undefined;
  const folded =
    strategy === 'loose_string' && typeof expected === 'string' ? looseString(expected) : undefined;
  return {
    path,
    strategy,
    rule,
    expected,
    object,
    items,
    folded,
    quick: rule?.normalise ? undefined : quickMatch(strategy, expected, folded),
    lowered:
      strategy === 'ignore_case' && typeof expected === 'string'
        ? expected.toLowerCase()
        : undefined,
  };
}

/** A list's elements, each under the rule on `items[]` (which applies to every element, strings as much as objects). */
function itemNodes(
  expected: readonly JsonValue[],
  path: string,
  context: TreeContext,
): ValueNode[] {
  const rule = ruleAt(context.rules, `${rulePathOf(path)}[]`);
  const strategy = rule?.matching_strategy ?? 'exact';
  return expected.map((item, index) =>
    valueNode(item, strategy, `${path}[${index}]`, rule, context),
  );
}

function quickMatch(
  strategy: MatchingStrategy,
  expected: JsonValue,
  folded: string | undefined,
): ValueNode['quick'] {
  if (folded !== undefined) return 'folded';
  const leaf = typeof expected !== 'object' || expected === null;
  if (leaf && (strategy === 'exact' || strategy === 'any_of')) return 'same';
  if (typeof expected === 'string' && strategy === 'ignore_case') return 'lowered';
  return undefined;
}

/** Whether the walk may be skipped for a value that matches (`quick` in ValueNode). */
export function quickMatches(node: ValueNode, actual: JsonValue): boolean {
  switch (node.quick) {
    case 'same':
      return actual === node.expected;
    case 'folded':
      return typeof actual === 'string' && looseEquals(node.folded as string, actual, false);
    case 'lowered':
      return (
        actual === node.expected ||
        (typeof actual === 'string' && actual.toLowerCase() === node.lowered)
      );
    default:
      return false;
  }
}

/**
 * An acceptable leaf value decided exactly as the walk decides it (the actual value coerced by the
 * candidate's own inferred schema, then matched). Containers, named normalisers and strategies
 * other than exact and loose_string are left to the walk.
 */
function acceptsAlone(node: ValueNode, schema: JsonSchema | undefined): AcceptableValue['accepts'] {
  const { expected, strategy, folded } = node;
  if (node.rule?.normalise || (typeof expected === 'object' && expected !== null)) return 'walk';
  if (schema !== undefined && schema === inferSchema('') && folded !== undefined) return 'folded';
  return strategy === 'exact' ? 'leaf' : 'walk';
}

/** An acceptable value's verdict when `accepts` is not `walk`. */
export function accepted(candidate: AcceptableValue, actual: JsonValue): boolean {
  const { expected, folded } = candidate.node;
  if (candidate.accepts === 'folded')
    // Folding drops white space anywhere, so the schema's trimming cannot change the verdict: only NFC can.
    return typeof actual === 'string' && looseEquals(folded as string, actual, true);
  return (
    actual === expected ||
    (typeof actual === 'string' && normaliseBySchema(actual, candidate.schema, false) === expected)
  );
}
