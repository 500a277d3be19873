import type { JsonValue } from '../trace/trace.js';
import type { MemberNode, ObjectNode } from './argument-tree.js';
import { accepted, quickMatches } from './argument-tree.js';
import { plainText, type CompiledSchema } from './compile-schema.js';
import { compareMember, isMember, unexpected, type CompareState } from './compiled-arguments.js';
import type { JsonObject } from './member-keys.js';
import { ruleAt, rulePathOf } from './rule-table.js';
import { passesLeaf, type LeafCheck } from './leaf-check.js';
import { isPrintableAscii } from './normalise/printable-ascii.js';
import type { Check } from './schema-check.js';

type Normalise = (value: JsonValue) => JsonValue;

/**
 * The top level of an expectation bound to a tool schema: for each expected argument, in scoring
 * order, the schema's normaliser for it, its check, and what leaving it out means — so one walk
 * over the sent arguments normalises, checks and compares each of them, building no normalised
 * copy and looking nothing up by name.
 */
export interface SentPlan {
  readonly members: readonly SentMember[];
  /** Whether the walk can check the schema (a declared schema whose top level the prepared check covers). */
  readonly checks: boolean;
  /** Required arguments no member covers: each must be sent. */
  readonly requiredOthers: readonly string[];
  readonly schema: CompiledSchema;
}

interface SentMember {
  readonly node: MemberNode;
  readonly key: string;
  readonly weight: number;
  readonly normalise: Normalise;
  /** Printable text needs trimming only: the walk does it without calling `normalise`. */
  readonly plain: boolean;
  readonly check: Check | undefined;
  /** `check` as data, when the member's schema is a leaf one (read inline, no call). */
  readonly leaf: LeafCheck | undefined;
  /** An argument the schema does not list is checked by additionalProperties even when sent as undefined. */
  readonly listed: boolean;
  readonly required: boolean;
  /** The schema default an absent member takes. */
  readonly fallback: JsonValue | undefined;
  /** Leaving the member out breaks the schema (required with no default, or a default its schema refuses). */
  readonly absentBreaks: boolean;
}

/** The plan of a tree's root, or undefined when its members depend on the call (a glob rule standing alone). */
export function sentPlan(
  root: ObjectNode,
  schema: CompiledSchema,
  declared: boolean,
): SentPlan | undefined {
  if (root.members === undefined) return undefined;
  const top = declared ? schema.top : undefined;
  const required = new Set(top?.required ?? []);
  const badDefaults = new Set(top?.badDefaults ?? []);
  const members = root.members.map((node): SentMember => {
    const fallback = schema.defaultOf(node.key);
    const check = top?.checks.get(node.key) ?? top?.other;
    return {
      node,
      key: node.key,
      weight: node.weight,
      normalise: schema.member(node.key),
      plain: plainText(schema.memberSchema(node.key)),
      check,
      leaf: top?.checks.has(node.key) ? top.leaves.get(node.key) : top?.otherLeaf,
      listed: top?.checks.has(node.key) ?? false,
      required: required.has(node.key),
      fallback,
      absentBreaks: (required.has(node.key) && fallback === undefined) || badDefaults.has(node.key),
    };
  });
  const keys = new Set(root.members.map((node) => node.key));
  return {
    members,
    checks: top !== undefined,
    requiredOthers: [...required].filter((name) => !keys.has(name)),
    schema,
  };
}

/** Whether a sent member (normalised) meets its schema, as the whole-object check judges it. */
function fits(member: SentMember, value: JsonValue | undefined): boolean {
  if (value !== undefined)
    return member.leaf !== undefined
      ? passesLeaf(member.leaf, value)
      : member.check === undefined || member.check(value);
  if (member.required) return false;
  return member.listed || member.check === undefined || member.check(value as unknown as JsonValue);
}

/** True only when `compareMember` would score the member 1 and record nothing: the common match, decided inline. */
function matchesAtOnce(node: MemberNode, value: JsonValue | undefined, present: boolean): boolean {
  const { acceptable } = node;
  if (acceptable === undefined)
    return value !== undefined && node.value !== undefined && quickMatches(node.value, value);
  if (!present) return acceptable.mayOmit;
  for (const candidate of acceptable.candidates)
    if (candidate.accepts !== 'walk' && accepted(candidate, value as JsonValue)) return true;
  return false;
}

/** The arguments break the schema: the caller asks Ajv for the words. */
export const breaksSchema = -2;

/**
 * `compareCompiled(root, sent, normalise(sent))`, each argument normalised (and, with `checks`
 * and a plan that can, checked against its schema) as it is reached. Returns the raw score, or `breaksSchema` as soon
 * as an argument breaks the schema (whatever was recorded until then is moot: a schema violation
 * scores 0 with no mismatches).
 */
export function scoreSent(
  plan: SentPlan,
  root: ObjectNode,
  sent: JsonObject,
  state: CompareState,
  checks: boolean,
): number {
  let total = 0;
  let weights = 0;
  for (const member of plan.members) {
    const { key, weight } = member;
    const present = Object.hasOwn(sent, key);
    let value: JsonValue | undefined;
    if (present) {
      const item = sent[key];
      // Numbers, booleans and null normalise to themselves under any schema; printable text under a plain one is only trimmed.
      value =
        typeof item === 'string'
          ? member.plain && isPrintableAscii(item)
            ? item.trim()
            : member.normalise(item)
          : typeof item === 'object' && item !== null
            ? member.normalise(item)
            : item;
      if (checks && !fits(member, value)) return breaksSchema;
    } else {
      if (checks && member.absentBreaks) return breaksSchema;
      value = member.fallback;
    }
    weights += weight;
    total += matchesAtOnce(member.node, value, present)
      ? weight
      : weight * compareMember(member.node, value, present, state);
  }
  if (checks)
    for (const name of plan.requiredOthers)
      if (!Object.hasOwn(sent, name) || sent[name] === undefined) return breaksSchema;
  const { extra, rules } = root.context;
  const top = checks ? plan.schema.top : undefined;
  for (const key in sent) {
    if (!Object.hasOwn(sent, key) || isMember(root.members as readonly MemberNode[], key)) continue;
    const item = sent[key] as JsonValue;
    if (top !== undefined) {
      const listed = top.checks.get(key);
      const check = listed ?? top.other;
      if (
        check !== undefined &&
        (listed === undefined || item !== undefined) &&
        !check(plan.schema.member(key)(item))
      )
        return breaksSchema;
    }
    if (extra === 'ignore') continue;
    if (ruleAt(rules, rulePathOf(key))?.matching_strategy === 'ignore') continue;
    weights += 1;
    unexpected(state, key, state.explain ? plan.schema.member(key)(item) : undefined, extra);
  }
  return weights === 0 ? 1 : total / weights;
}
