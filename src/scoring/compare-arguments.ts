import { munkres } from 'munkres';
import type { JsonValue } from '../trace/trace.js';
import { inferSchema } from './infer-schema.js';
import { matchAlone, matchValue } from './match/match-value.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { applyNamedNormalisers } from './normalise/apply-named-normalisers.js';
import { hasOwn, ownValue, setOwn } from './own.js';
import { asObject, isOmittedMarker, memberKeys } from './member-keys.js';
import { ruleAt, rulePathOf, type RuleTable } from './rule-table.js';
import type { ArgumentRule, MatchingStrategy, Mismatch, ReasonCode } from './types.js';

/** The state of one comparison: rules in, mismatches and the critical/extra verdicts out. */
export interface Walk {
  readonly rules: RuleTable;
  readonly extra: 'ignore' | 'penalize' | 'fail';
  /** User normalisers by name, beside the built-in ones. */
  readonly normalisers: { readonly [name: string]: (value: JsonValue) => JsonValue } | undefined;
  /** Embedding lookup for semantic rules. */
  readonly embeddings: ((text: string) => readonly number[] | undefined) | undefined;
  readonly mismatches: Record<string, Mismatch>;
  /** A critical argument mismatched: the call scores 0. */
  critical: boolean;
  /** An argument outside the expectation appeared under `extra_arguments: fail`. */
  unexpected: boolean;
}

/** Values as given (for presence checks: omitted vs empty) and after normalisation with defaults (for comparison). */
export interface Sides {
  readonly raw: JsonValue | undefined;
  readonly value: JsonValue | undefined;
}

export function newWalk(
  rules: Walk['rules'],
  extra: Walk['extra'],
  normalisers?: Walk['normalisers'],
  embeddings?: Walk['embeddings'],
): Walk {
  return {
    rules,
    extra,
    normalisers,
    embeddings,
    mismatches: {},
    critical: false,
    unexpected: false,
  };
}

/**
 * The reference comparison: weighted score in [0, 1] of an actual arguments object against the
 * expected one, every mismatch recorded by path. Rules apply by path (`address.city`,
 * `items[].sku`, globs such as `*_id`). The compiled scorer (`compile-case.ts`) must give
 * byte-identical results; a property test holds the two together.
 */
export function compareObject(expected: Sides, actual: Sides, path: string, walk: Walk): number {
  const expectedValue = asObject(expected.value) ?? {};
  const actualValue = asObject(actual.value) ?? {};
  const expectedRaw = asObject(expected.raw);
  const actualRaw = asObject(actual.raw);
  const prefix = path === '' ? '' : `${path}.`;
  const keys = memberKeys(expectedValue, actualValue, walk.rules, rulePathOf(prefix));
  let total = 0;
  let weights = 0;
  for (const key of keys) {
    const childPath = `${prefix}${key}`;
    const rule = ruleAt(walk.rules, rulePathOf(childPath));
    const weight = rule?.weight ?? 1;
    weights += weight;
    total +=
      weight *
      compareMember(
        ownValue(expectedRaw, key),
        ownValue(expectedValue, key),
        ownValue(actualValue, key),
        hasOwn(actualRaw, key),
        childPath,
        rule,
        walk,
      );
  }
  if (walk.extra !== 'ignore')
    for (const key of Object.keys(actualValue)) {
      if (keys.includes(key)) continue;
      // A rule saying "ignore" for an argument the expectation leaves out allows it, whatever its value.
      if (ruleAt(walk.rules, rulePathOf(`${prefix}${key}`))?.matching_strategy === 'ignore')
        continue;
      // An argument nobody asked for can change what a tool does (force: true); by default it fails the call.
      record(
        walk,
        `${prefix}${key}`,
        undefined,
        ownValue(actualValue, key),
        'unexpected_argument',
        'exact',
        undefined,
      );
      if (walk.extra === 'fail') walk.unexpected = true;
      weights += 1;
    }
  return weights === 0 ? 1 : total / weights;
}

/** One argument: its expected value as written (for markers) and normalised, the actual value and whether it was sent at all. */
function compareMember(
  expectedRaw: JsonValue | undefined,
  expectedValue: JsonValue | undefined,
  actualValue: JsonValue | undefined,
  actualPresent: boolean,
  path: string,
  rule: ArgumentRule | undefined,
  walk: Walk,
): number {
  const strategy: MatchingStrategy = rule?.matching_strategy ?? (rule?.any_of ? 'any_of' : 'exact');
  if (strategy === 'ignore') return 1;
  const acceptable =
    rule?.any_of ?? (isOmittedMarker(expectedRaw) ? [expectedRaw as JsonValue] : undefined);
  if (acceptable) {
    const mayOmit = acceptable.some(isOmittedMarker);
    const values = acceptable.filter((value) => !isOmittedMarker(value));
    // The omitted check looks at what was sent, before schema defaults fill gaps.
    if (!actualPresent)
      return mayOmit
        ? 1
        : record(walk, path, values[0], undefined, 'missing_argument', strategy, rule);
    if (values.length === 0)
      return record(walk, path, undefined, actualValue, 'must_be_omitted', strategy, rule);
    const inner = strategy === 'any_of' ? 'exact' : strategy;
    for (const value of values) {
      // Each acceptable value brings its own type: "10" is acceptable as 10 even when nothing else says the argument is a number.
      const schema = inferSchema(value);
      const candidate = normaliseBySchema(value, schema, false);
      const actual = normaliseBySchema(actualValue as JsonValue, schema, false);
      if (
        compareValue(
          candidate,
          actual,
          inner,
          path,
          rule,
          newWalk(walk.rules, walk.extra, walk.normalisers, walk.embeddings),
        ) === 1
      )
        return 1;
    }
    return record(
      walk,
      path,
      values.length === 1 ? values[0] : values,
      actualValue,
      'value_mismatch',
      strategy,
      rule,
      `none of ${values.length} acceptable value(s)`,
    );
  }
  if (actualValue === undefined)
    return record(walk, path, expectedValue, undefined, 'missing_argument', strategy, rule);
  if (expectedValue === undefined) {
    // Only a rule that stands alone gets here with no expected value (rules that need one are refused when the case is compiled).
    const actual = rule?.normalise
      ? applyNamedNormalisers(actualValue, rule, walk.normalisers)
      : actualValue;
    const match = matchAlone(strategy, actual, rule ?? {});
    return match.matched
      ? 1
      : record(
          walk,
          path,
          undefined,
          actual,
          match.typeMismatch ? 'type_mismatch' : 'value_mismatch',
          strategy,
          rule,
          match.detail,
        );
  }
  return compareValue(expectedValue, actualValue, strategy, path, rule, walk);
}

function compareValue(
  expectedValue: JsonValue,
  actualValue: JsonValue,
  strategy: MatchingStrategy,
  path: string,
  rule: ArgumentRule | undefined,
  walk: Walk,
): number {
  const expected = rule?.normalise
    ? applyNamedNormalisers(expectedValue, rule, walk.normalisers)
    : expectedValue;
  const actual = rule?.normalise
    ? applyNamedNormalisers(actualValue, rule, walk.normalisers)
    : actualValue;
  if (strategy === 'exact' || strategy === 'any_of') {
    if (asObject(expected) && asObject(actual))
      return compareObject(
        { raw: expected, value: expected },
        { raw: actual, value: actual },
        path,
        walk,
      );
    if (Array.isArray(expected) && Array.isArray(actual))
      return compareArray(expected, actual, path, rule, walk);
  }
  const match = matchValue(strategy, expected, actual, rule ?? {}, walk.embeddings);
  if (match.matched) return 1;
  return record(
    walk,
    path,
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

/** Arrays compare element by element in order, or (`unordered`) by the best one-to-one pairing. */
function compareArray(
  expected: readonly JsonValue[],
  actual: readonly JsonValue[],
  path: string,
  rule: ArgumentRule | undefined,
  walk: Walk,
): number {
  const longer = Math.max(expected.length, actual.length);
  if (longer === 0) return 1;
  // A rule on `items[]` applies to every element, strings and numbers as much as objects.
  const itemRule = ruleAt(walk.rules, `${rulePathOf(path)}[]`);
  const itemStrategy = itemRule?.matching_strategy ?? 'exact';
  let pairs: [number, number][];
  if (rule?.unordered) {
    const scores = expected.map((item, i) =>
      actual.map((candidate) =>
        compareValue(
          item,
          candidate,
          itemStrategy,
          `${path}[${i}]`,
          itemRule,
          newWalk(walk.rules, walk.extra, walk.normalisers, walk.embeddings),
        ),
      ),
    );
    pairs =
      scores.length > 0 && actual.length > 0
        ? (munkres(scores.map((row) => row.map((score) => 1 - score))) as [number, number][])
        : [];
  } else {
    pairs = expected.slice(0, actual.length).map((_, i) => [i, i]);
  }
  let total = 0;
  for (const [i, j] of pairs)
    total += compareValue(
      expected[i] as JsonValue,
      actual[j] as JsonValue,
      itemStrategy,
      `${path}[${i}]`,
      itemRule,
      walk,
    );
  if (expected.length !== actual.length)
    record(
      walk,
      path,
      expected as JsonValue,
      actual as JsonValue,
      'value_mismatch',
      'exact',
      rule,
      `${expected.length} element(s) expected, ${actual.length} given`,
    );
  return total / longer;
}

function record(
  walk: Walk,
  path: string,
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  reason: ReasonCode,
  strategy: MatchingStrategy,
  rule: ArgumentRule | undefined,
  detail?: string,
): number {
  setOwn(walk.mismatches, path, {
    expected,
    actual,
    reason,
    strategy,
    score: 0,
    ...(detail !== undefined ? { detail } : {}),
  });
  if (rule?.critical) walk.critical = true;
  return 0;
}
