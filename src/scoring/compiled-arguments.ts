import { jsonEqual } from './json-equal.js';
import { munkres } from 'munkres';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import {
  accepted,
  memberNode,
  quickMatches,
  type MemberNode,
  type ObjectNode,
  type ValueNode,
} from './argument-tree.js';
import { asObject, memberKeys } from './member-keys.js';
import { matchAlone, matchValue } from './match/match-value.js';
import { looseString } from './normalise/loose-string.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { applyNamedNormalisers } from './normalise/apply-named-normalisers.js';
import { hasOwn, ownValue, setOwn } from './own.js';
import { ruleAt, rulePathOf } from './rule-table.js';
import type {
  ArgumentRule,
  MatchingStrategy,
  Mismatch,
  ReasonCode,
  ScoreOptions,
} from './types.js';

/**
 * What one comparison writes: mismatches (only when explaining, and only once one is found — a
 * call that matches allocates none) and the verdicts that zero a call or make it unclean.
 */
export interface CompareState {
  readonly explain: boolean;
  mismatches: Record<string, Mismatch> | undefined;
  readonly options: ScoreOptions;
  critical: boolean;
  unexpected: boolean;
  /** Something was recorded (a mismatch, explained or not): the call is not a clean match. */
  dirty: boolean;
}

export function newState(explain: boolean, options: ScoreOptions): CompareState {
  return {
    explain,
    mismatches: undefined,
    options,
    critical: false,
    unexpected: false,
    dirty: false,
  };
}

/** Forgets what a walk recorded, to walk again. */
export function resetState(state: CompareState): void {
  state.mismatches = undefined;
  state.critical = false;
  state.unexpected = false;
  state.dirty = false;
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
    weights += 1;
    unexpected(state, path, ownValue(actual, key), context.extra);
  }
  return weights === 0 ? 1 : total / weights;
}

/** An argument nobody asked for can change what a tool does (force: true); by default it fails the call. */
export function unexpected(
  state: CompareState,
  path: string,
  value: JsonValue | undefined,
  extra: ObjectNode['context']['extra'],
): void {
  record(state, path, undefined, value, 'unexpected_argument', 'exact', undefined);
  if (extra === 'fail') state.unexpected = true;
}

export function isMember(members: readonly MemberNode[], key: string): boolean {
  for (const member of members) if (member.key === key) return true;
  return false;
}

export function compareMember(
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
        : record(state, path, acceptable.values[0], undefined, 'missing_argument', strategy, rule);
    if (acceptable.values.length === 0)
      return record(state, path, undefined, actualValue, 'must_be_omitted', strategy, rule);
    let schema: JsonSchema | undefined | null = null;
    let actual: JsonValue = null;
    for (const candidate of acceptable.candidates) {
      if (candidate.accepts !== 'walk') {
        if (accepted(candidate, actualValue as JsonValue)) return 1;
        continue;
      }
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
    return record(state, path, member.expectedValue, undefined, 'missing_argument', strategy, rule);
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
  if (node.quick !== undefined && quickMatches(node, actualValue)) return 1;
  const { rule, expected, strategy } = node;
  const actual = rule?.normalise
    ? applyNamedNormalisers(actualValue, rule, state.options.normalisers)
    : actualValue;
  if (node.object && asObject(actual)) return compareCompiled(node.object, actual, actual, state);
  if (node.items && Array.isArray(actual)) return compareItems(node, node.items, actual, state);
  if (strategy === 'exact' || strategy === 'any_of') {
    if (jsonEqual(expected, actual)) return 1;
    return record(state, node.path, expected, actual, 'value_mismatch', strategy, rule);
  }
  if (node.folded !== undefined && typeof actual === 'string')
    return node.folded === looseString(actual)
      ? 1
      : record(state, node.path, expected, actual, 'value_mismatch', strategy, rule);
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
  detail?: string,
): number {
  state.dirty = true;
  if (state.explain)
    setOwn((state.mismatches ??= {}), path, {
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
