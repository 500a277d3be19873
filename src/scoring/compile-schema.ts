import type { JsonSchema, JsonValue } from '../trace/trace.js';
import {
  allowsType,
  child,
  normaliseBySchema,
  subSchema,
} from './normalise/normalise-by-schema.js';
import { ownValue, setOwn } from './own.js';
import { annotations, checker, type Check } from './schema-check.js';
import { isPrintableAscii } from './normalise/printable-ascii.js';
import { leafCheck, type LeafCheck } from './leaf-check.js';
import { schemaCache } from './schema-cache.js';
import { violationWorder } from './word-violation.js';

type Normalise = (value: JsonValue) => JsonValue;
type JsonObject = { readonly [key: string]: JsonValue };

/**
 * A tool's parameter schema prepared once for the compiled scorer: a normaliser that gives what
 * `normaliseBySchema(value, schema, true)` gives, and — for the keywords tool schemas use (see
 * schema-check.ts) — a validity check that answers what Ajv answers. Both are built from closures,
 * not generated code: one function body serves every schema, so it is optimised once however many
 * distinct schemas a workload brings (Ajv compiles a new function per schema, which a workload of
 * thousands of schemas runs cold). Ajv stays the authority: it checks schemas beyond these
 * keywords, and writes the message whenever the check says invalid.
 */
export interface CompiledSchema {
  readonly normalise: Normalise;
  /** Undefined when the schema uses a keyword outside the subset: ask Ajv. */
  readonly valid: Check | undefined;
  /** What `normalise` applies to one member of an object: the scorer normalises arguments one by one, building no copy. */
  readonly member: (key: string) => Normalise;
  /** The schema `member(key)` normalises by (undefined: none). */
  readonly memberSchema: (key: string) => JsonSchema | undefined;
  /** The (normalised) default `normalise` gives an object lacking `key`, if the schema has one. */
  readonly defaultOf: (key: string) => JsonValue | undefined;
  /**
   * Whether `valid(normalise(sent))` holds for an arguments object, decided member by member
   * without building the normalised copy; undefined when the schema's top level is beyond an
   * object with properties, required and additionalProperties (then normalise and ask `valid`).
   */
  readonly validSent: ((sent: JsonObject) => boolean) | undefined;
  /** The same top-level check taken apart by member, for a scorer that checks each argument as it compares it. */
  readonly top: TopLevelCheck | undefined;
  /** Ajv's first violation of normalised arguments, worded without Ajv where the schema allows (word-violation.ts). */
  readonly word: ((value: JsonObject) => string | undefined) | undefined;
}

/** An object schema's check, member by member (each member's value checked after `member(key)` normalised it). */
export interface TopLevelCheck {
  /** Listed properties' checks. */
  readonly checks: ReadonlyMap<string, Check>;
  /** The same checks as data, for leaf property schemas. */
  readonly leaves: ReadonlyMap<string, LeafCheck>;
  /** additionalProperties' check, for every key not listed (and as data, when a leaf schema). */
  readonly other: Check | undefined;
  readonly otherLeaf: LeafCheck | undefined;
  readonly required: readonly string[];
  /** Members whose default breaks their own schema: leaving one out breaks the schema. */
  readonly badDefaults: readonly string[];
}

/** Prepared schemas, one per schema text: a suite's cases repeat the same tool schemas. */
const prepared = schemaCache(prepare, 2_000);

export function compileSchema(schema: JsonSchema): CompiledSchema {
  return prepared.get(schema);
}

function prepare(schema: JsonSchema): CompiledSchema {
  const object = objectNormaliser(schema);
  const valid = checker(schema);
  const top = valid && topLevelCheck(schema, object);
  return {
    ...object,
    valid,
    validSent: top && sentChecker(top, object),
    top,
    word: top && violationWorder(schema),
  };
}

interface ObjectNormaliser {
  readonly normalise: Normalise;
  readonly member: (key: string) => Normalise;
  readonly memberSchema: (key: string) => JsonSchema | undefined;
  readonly defaultOf: (key: string) => JsonValue | undefined;
  readonly defaults: readonly (readonly [string, JsonValue])[];
}

/** `normaliseBySchema` with the schema's decisions taken once; anything unusual is handed to it. */
function normaliser(schema: JsonSchema | undefined): Normalise {
  return schema === undefined
    ? (value) => normaliseBySchema(value, undefined, true)
    : objectNormaliser(schema).normalise;
}

/** Whether printable text under the schema only needs trimming (no coercion to a number, boolean, container or date). */
export function plainText(schema: JsonSchema | undefined): boolean {
  if (schema === undefined) return true;
  const leafOnly =
    !allowsType(schema, 'string') &&
    (allowsType(schema, 'number') ||
      allowsType(schema, 'integer') ||
      allowsType(schema, 'boolean') ||
      allowsType(schema, 'object') ||
      allowsType(schema, 'array'));
  const format = ownValue(schema, 'format');
  return !leafOnly && format !== 'date-time' && format !== 'date';
}

function objectNormaliser(schema: JsonSchema): ObjectNormaliser {
  const plainStrings = plainText(schema);
  const properties = subSchema(schema, 'properties');
  const additional = subSchema(schema, 'additionalProperties');
  const other = normaliser(additional);
  // Listed members get their own normaliser (built now); every other key shares the additionalProperties one.
  const listed = new Map<string, Normalise>();
  for (const key of properties ? Object.keys(properties) : []) {
    const propertySchema = child(properties, key);
    if (propertySchema !== undefined) listed.set(key, normaliser(propertySchema));
  }
  const member = (key: string): Normalise => listed.get(key) ?? other;
  const itemNormaliser = normaliser(subSchema(schema, 'items'));
  const defaults: [string, JsonValue][] = [];
  for (const key of properties ? Object.keys(properties) : []) {
    const propertySchema = child(properties, key);
    const fallback = propertySchema === undefined ? undefined : ownValue(propertySchema, 'default');
    if (fallback !== undefined)
      defaults.push([key, normaliseBySchema(fallback, propertySchema, true)]);
  }
  const defaultByKey = new Map(defaults);
  const normalise: Normalise = (value) => {
    if (typeof value === 'string') {
      // Printable text under a plain string schema only needs trimming; everything else takes the general path.
      if (plainStrings && isPrintableAscii(value)) return value.trim();
      return normaliseBySchema(value, schema, true);
    }
    if (Array.isArray(value)) {
      let result: JsonValue[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = value[index] as JsonValue;
        const normalised = itemNormaliser(item);
        if (normalised !== item) (result ??= value.slice())[index] = normalised;
      }
      return result ?? value;
    }
    if (typeof value === 'object' && value !== null) {
      let result: Record<string, JsonValue> | undefined;
      for (const key in value) {
        // for…in without allocating a key list; inherited keys are skipped (own properties only).
        if (!Object.hasOwn(value, key)) continue;
        const item = value[key] as JsonValue;
        const normalised = member(key)(item);
        if (normalised !== item) setOwn((result ??= { ...value }), key, normalised);
      }
      for (const [key, fallback] of defaults)
        if (!Object.hasOwn(value, key)) setOwn((result ??= { ...value }), key, fallback);
      return result ?? value;
    }
    return value;
  };
  return {
    normalise,
    member,
    memberSchema: (key) => (properties ? child(properties, key) : undefined) ?? additional,
    defaultOf: (key) => defaultByKey.get(key),
    defaults,
  };
}

const topKeywords = new Set(['type', 'properties', 'required', 'additionalProperties']);

/** The top-level check taken apart by member, for object schemas whose check is in the subset. */
function topLevelCheck(schema: JsonSchema, object: ObjectNormaliser): TopLevelCheck | undefined {
  for (const keyword of Object.keys(schema))
    if (!annotations.has(keyword) && !topKeywords.has(keyword)) return undefined;
  const type = ownValue(schema, 'type');
  if (type !== undefined && type !== 'object') return undefined;
  const declared = ownValue(schema, 'properties') ?? {};
  const required = ownValue(schema, 'required') ?? [];
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared))
    return undefined;
  if (!Array.isArray(required) || required.some((name) => typeof name !== 'string'))
    return undefined;
  const checks = new Map<string, Check>();
  const leaves = new Map<string, LeafCheck>();
  for (const key of Object.keys(declared)) {
    const check = checker(declared[key] as JsonValue);
    if (!check) return undefined;
    checks.set(key, check);
    const leaf = leafCheck(declared[key]);
    if (leaf) leaves.set(key, leaf);
  }
  const extra = ownValue(schema, 'additionalProperties');
  const other = extra === undefined ? undefined : checker(extra);
  if (extra !== undefined && !other) return undefined;
  const badDefaults = object.defaults
    .filter(([key, fallback]) => checks.get(key)?.(fallback) === false)
    .map(([key]) => key);
  return {
    checks,
    leaves,
    other,
    otherLeaf: leafCheck(extra),
    required: required as string[],
    badDefaults,
  };
}

function sentChecker(top: TopLevelCheck, object: ObjectNormaliser): (sent: JsonObject) => boolean {
  const { checks, other, required, badDefaults } = top;
  const { member, defaultOf } = object;
  return (sent) => {
    for (const key in sent) {
      if (!Object.hasOwn(sent, key)) continue;
      const item = sent[key] as JsonValue;
      const check = checks.get(key);
      if (check !== undefined) {
        if (item !== undefined && !check(member(key)(item))) return false;
      } else if (other !== undefined && !other(member(key)(item))) return false;
    }
    for (const name of required)
      if (Object.hasOwn(sent, name) ? sent[name] === undefined : defaultOf(name) === undefined)
        return false;
    for (const key of badDefaults) if (!Object.hasOwn(sent, key)) return false;
    return true;
  };
}
