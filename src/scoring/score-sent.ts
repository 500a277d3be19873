import type { JsonValue } from '../trace/trace.js';
import type { MemberNode, ObjectNode, TreeContext } from './argument-tree.js';
import { plainText, type CompiledSchema } from './compile-schema.js';
import { compareMember, unexpected, type CompareState } from './compiled-arguments.js';
import type { JsonObject } from './member-keys.js';
import { ruleAt, rulePathOf } from './rule-table.js';
import { passesLeaf } from './leaf-check.js';
import { looseEquals } from './normalise/loose-equals.js';
import { trimmedPrintableAscii } from './normalise/printable-ascii.js';
import { ownEnumerated } from './own.js';
import type { Check } from './schema-check.js';

type Normalise = (value: JsonValue) => JsonValue;

/**
 * The top level of an expectation bound to a tool schema: for each expected argument, in scoring
 * order, the schema's normaliser for it, its check, what leaving it out means and how it matches
 * at once — so one walk over the sent arguments normalises, checks and compares each of them,
 * building no normalised copy and looking nothing up by name. What the walk reads for a call is
 * kept in these few flat records (a case scored among thousands is not in the processor's cache:
 * every object it reaches costs a memory read); the argument tree is reached only when something
 * does not match at once.
 */
export interface SentPlan {
  readonly members: readonly SentMember[];
  /** The members' names, for telling extra arguments apart. */
  readonly keys: readonly string[];
  /** Whether the walk can check the schema (a declared schema whose top level the prepared check covers). */
  readonly checks: boolean;
  /** Required arguments no member covers: each must be sent. */
  readonly requiredOthers: readonly string[];
  readonly schema: CompiledSchema;
  readonly extra: TreeContext['extra'];
  readonly rules: TreeContext['rules'];
}

/** How a member matches without the tree: an equal leaf, a string equal once folded, one of acceptable values. */
const enum Quick {
  None,
  Same,
  Folded,
  Acceptable,
}

interface SentMember {
  readonly node: MemberNode;
  readonly key: string;
  readonly weight: number;
  readonly normalise: Normalise;
  /** Printable text needs trimming only: the walk does it without calling `normalise`. */
  readonly plain: boolean;
  readonly check: Check | undefined;
  /** `check` as data when the member's schema is a leaf one (type bits, -1: none; allowed plain values). */
  readonly types: number;
  readonly values: readonly JsonValue[] | undefined;
  /** An argument the schema does not list is checked by additionalProperties even when sent as undefined. */
  readonly listed: boolean;
  readonly required: boolean;
  /** The schema default an absent member takes. */
  readonly fallback: JsonValue | undefined;
  /** Leaving the member out breaks the schema (required with no default, or a default its schema refuses). */
  readonly absentBreaks: boolean;
  readonly quick: Quick;
  /** Same: the expected leaf; Folded: the folded string. */
  readonly expected: JsonValue | undefined;
  /** Acceptable: the values accepted when equal, the folded strings accepted, and whether absence is accepted. */
  readonly leaves: readonly JsonValue[];
  readonly folds: readonly string[];
  readonly mayOmit: boolean;
  /** When the member does not match at once, the walk can only record a mismatch: `===` (or the folded text) was all it would compare. */
  readonly certain: boolean;
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
    const { key } = node;
    const fallback = schema.defaultOf(key);
    const leaf = top?.checks.has(key) ? top.leaves.get(key) : top?.otherLeaf;
    return {
      node,
      key,
      weight: node.weight,
      normalise: schema.member(key),
      plain: plainText(schema.memberSchema(key)),
      check: top?.checks.get(key) ?? top?.other,
      types: leaf ? leaf.types : -1,
      values: leaf?.values,
      listed: top?.checks.has(key) ?? false,
      required: required.has(key),
      fallback,
      absentBreaks: (required.has(key) && fallback === undefined) || badDefaults.has(key),
      ...quickOf(node),
    };
  });
  const keys = root.members.map((node) => node.key);
  return {
    members,
    keys,
    checks: top !== undefined,
    requiredOthers: [...required].filter((name) => !keys.includes(name)),
    schema,
    extra: root.context.extra,
    rules: root.context.rules,
  };
}

function quickOf(
  node: MemberNode,
): Pick<SentMember, 'quick' | 'expected' | 'leaves' | 'folds' | 'mayOmit' | 'certain'> {
  const none = {
    quick: Quick.None,
    expected: undefined,
    leaves: [],
    folds: [],
    mayOmit: false,
    certain: false,
  };
  const { acceptable, value } = node;
  if (acceptable) {
    const leaves = acceptable.candidates
      .filter((candidate) => candidate.accepts === 'leaf')
      .map((candidate) => candidate.node.expected);
    const folds = acceptable.candidates
      .filter((candidate) => candidate.accepts === 'folded')
      .map((candidate) => candidate.node.folded as string);
    return {
      ...none,
      quick: Quick.Acceptable,
      leaves,
      folds,
      mayOmit: acceptable.mayOmit,
    };
  }
  // A leaf is compared by `===` and a loose string by its folded form (any other value is unequal to a string): nothing else makes either match.
  if (value?.quick === 'same')
    return { ...none, quick: Quick.Same, expected: value.expected, certain: true };
  if (value?.quick === 'folded')
    return { ...none, quick: Quick.Folded, expected: value.folded, certain: true };
  return none;
}

/** Whether a sent member (normalised) meets its schema, as the whole-object check judges it. */
function fits(member: SentMember, value: JsonValue | undefined): boolean {
  if (value !== undefined)
    return member.types !== -1
      ? passesLeaf(member, value)
      : member.check === undefined || member.check(value);
  if (member.required) return false;
  return member.listed || member.check === undefined || member.check(value as unknown as JsonValue);
}

/** True only when `compareMember` would score the member 1 and record nothing: the common match, decided inline. */
function matchesAtOnce(
  member: SentMember,
  value: JsonValue | undefined,
  present: boolean,
): boolean {
  switch (member.quick) {
    case Quick.Same:
      return value === member.expected;
    case Quick.Folded:
      return typeof value === 'string' && looseEquals(member.expected as string, value, false);
    case Quick.Acceptable:
      if (!present) return member.mayOmit;
      for (const leaf of member.leaves) if (leaf === value) return true;
      if (typeof value === 'string')
        for (const folded of member.folds) if (looseEquals(folded, value, true)) return true;
      return false;
    default:
      return false;
  }
}

/** The arguments break the schema: the caller asks Ajv for the words. */
export const breaksSchema = -2;

/** A member's slot when the call did not send it. */
const absent: unique symbol = Symbol('absent');
type Slot = JsonValue | undefined | typeof absent;
/** The sent values by member index, one array per nesting depth (a named normaliser may score a call itself). */
const slotsByDepth: Slot[][] = [];
let depth = 0;

/**
 * `compareCompiled(root, sent, normalise(sent))`, each argument normalised (and, with `checks`
 * and a plan that can, checked against its schema) as it is reached. Returns the raw score, or
 * `breaksSchema` as soon as an argument breaks the schema (whatever was recorded until then is
 * moot: a schema violation scores 0 with no mismatches).
 *
 * The sent object is read in one for…in pass into slots by member: a case's arguments have a
 * shape of their own, so looking each member up by name would miss the engine's property caches
 * on nearly every call, while for…in reads the object's own key list.
 */
export function scoreSent(
  plan: SentPlan,
  sent: JsonObject,
  state: CompareState,
  checks: boolean,
): number {
  const slots = (slotsByDepth[depth] ??= []);
  depth++;
  try {
    return scoreSlots(plan, sent, slots, state, checks);
  } finally {
    depth--;
  }
}

function scoreSlots(
  plan: SentPlan,
  sent: JsonObject,
  slots: Slot[],
  state: CompareState,
  checks: boolean,
): number {
  const { members, keys } = plan;
  const count = keys.length;
  for (let index = 0; index < count; index++) slots[index] = absent;
  let extras = false;
  for (const key in sent) {
    if (!ownEnumerated(sent, key)) continue;
    let index = 0;
    while (index < count && keys[index] !== key) index++;
    if (index === count) extras = true;
    else slots[index] = sent[key];
  }
  let total = 0;
  let weights = 0;
  for (let index = 0; index < count; index++) {
    const member = members[index] as SentMember;
    const { weight } = member;
    const item = slots[index] as Slot;
    const present = item !== absent;
    let value: JsonValue | undefined;
    if (present) {
      // Numbers, booleans and null normalise to themselves under any schema; printable text under a plain one is only trimmed.
      value =
        typeof item === 'string'
          ? ((member.plain ? trimmedPrintableAscii(item) : undefined) ?? member.normalise(item))
          : typeof item === 'object' && item !== null
            ? member.normalise(item)
            : item;
      if (checks && !fits(member, value)) return breaksSchema;
    } else {
      if (checks && member.absentBreaks) return breaksSchema;
      value = member.fallback;
    }
    weights += weight;
    if (matchesAtOnce(member, value, present)) total += weight;
    else if (member.certain && !state.explain) {
      // compareMember could only record a mismatch here: record it as it would, without explaining.
      state.dirty = true;
      if (member.node.rule?.critical) state.critical = true;
    } else total += weight * compareMember(member.node, value, present, state);
  }
  if (checks)
    for (const name of plan.requiredOthers)
      if (!Object.hasOwn(sent, name) || sent[name] === undefined) return breaksSchema;
  if (extras) {
    const more = scoreExtras(plan, sent, state, checks);
    if (more === breaksSchema) return breaksSchema;
    weights += more;
  }
  return weights === 0 ? 1 : total / weights;
}

/** The sent arguments no member covers: checked by the schema, then counted (how many weigh in) as extra arguments. */
function scoreExtras(
  plan: SentPlan,
  sent: JsonObject,
  state: CompareState,
  checks: boolean,
): number {
  const { extra, rules, keys, schema } = plan;
  const top = checks ? schema.top : undefined;
  let weights = 0;
  for (const key in sent) {
    if (!ownEnumerated(sent, key) || keys.includes(key)) continue;
    const item = sent[key] as JsonValue;
    if (top !== undefined) {
      const listed = top.checks.get(key);
      const check = listed ?? top.other;
      if (
        check !== undefined &&
        (listed === undefined || item !== undefined) &&
        !check(schema.member(key)(item))
      )
        return breaksSchema;
    }
    if (extra === 'ignore') continue;
    if (ruleAt(rules, rulePathOf(key))?.matching_strategy === 'ignore') continue;
    weights += 1;
    unexpected(state, key, state.explain ? schema.member(key)(item) : undefined, extra);
  }
  return weights;
}
