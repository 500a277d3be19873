import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { leafCheck, passesLeaf, type LeafCheck } from './leaf-check.js';
import type { JsonObject } from './member-keys.js';
import { ownValue } from './own.js';
import { annotations, isObject } from './schema-check.js';

/** A listed property, or additionalProperties, as a leaf check and the words of its type. */
interface WordedLeaf extends LeafCheck {
  /** `type` as Ajv prints it (`string`, `string,null`); undefined when the schema has no type. */
  readonly typeText: string | undefined;
}

/** Where the first violation is (an instance path, a JSON Pointer, as Ajv gives it) and its words. */
type Violation = readonly [at: string, words: string];
/** The first violation under a schema of a value at `at`; undefined when none is found. */
type Worder = (value: JsonValue, at: string) => Violation | undefined;

/**
 * The first violation Ajv reports (`validate-arguments.ts`'s `path: message` form), worded
 * without running Ajv, for the schemas tool arguments nearly always have: an object whose
 * properties are leaves (type and plain enum values), arrays of such (`type: array` with
 * `items`) or objects of the same kind, with required names and an additionalProperties of
 * true, false or a leaf. Ajv (allErrors off) stops at its first error, checking a schema's type
 * first, then for an object the required names in the order listed, then the keys
 * additionalProperties covers in the value's order, then the listed properties in the schema's
 * order; for an array its items in order; for a leaf its type before its enum. Undefined for any
 * other schema, or when nothing is found broken: Ajv has the say then. A property test holds the
 * words to Ajv's.
 */
export function violationWorder(
  schema: JsonSchema,
): ((value: JsonObject) => string | undefined) | undefined {
  const worder = objectWorder(schema, false);
  return (
    worder &&
    ((value) => {
      const found = worder(value, '');
      if (found === undefined) return undefined;
      // validate-arguments.ts's form: the instance path without its leading slash, dotted.
      const [at, words] = found;
      return `${at === '' ? '(arguments)' : at.slice(1).replace(/\//g, '.')}: ${words}`;
    })
  );
}

/** A property's worder: a leaf, an array of wordable items, or an object of wordable properties. */
function memberWorder(schema: JsonValue | undefined): Worder | undefined {
  const leaf = wordedLeaf(schema);
  if (leaf !== undefined)
    return (value, at) => {
      const words = leafWords(leaf, value);
      return words === undefined ? undefined : [at, words];
    };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const type = ownValue(schema, 'type');
  if (type === 'array') return arrayWorder(schema);
  if (type === 'object') return objectWorder(schema, true);
  return undefined;
}

/** Only these keywords (and annotations) beside the ones a worder reads. */
function onlyKeywords(schema: JsonSchema, allowed: readonly string[]): boolean {
  return Object.keys(schema).every(
    (keyword) => allowed.includes(keyword) || annotations.has(keyword),
  );
}

function arrayWorder(schema: JsonSchema): Worder | undefined {
  if (!onlyKeywords(schema, ['type', 'items'])) return undefined;
  const items = ownValue(schema, 'items');
  const item = items === undefined ? undefined : memberWorder(items);
  if (items !== undefined && item === undefined) return undefined;
  return (value, at) => {
    if (!Array.isArray(value)) return [at, `must be array`];
    if (item === undefined) return undefined;
    for (let index = 0; index < value.length; index++) {
      const words = item(value[index] as JsonValue, `${at}/${index}`);
      if (words !== undefined) return words;
    }
    return undefined;
  };
}

function objectWorder(schema: JsonSchema, typed: boolean): Worder | undefined {
  if (typed && !onlyKeywords(schema, ['type', 'properties', 'required', 'additionalProperties']))
    return undefined;
  const properties = ownValue(schema, 'properties') ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
    return undefined;
  const listed: [string, Worder][] = [];
  for (const key of Object.keys(properties)) {
    const worder = memberWorder(properties[key]);
    if (worder === undefined) return undefined;
    listed.push([key, worder]);
  }
  const extra = ownValue(schema, 'additionalProperties');
  const other = typeof extra === 'boolean' || extra === undefined ? extra : wordedLeaf(extra);
  if (other === undefined && extra !== undefined) return undefined;
  const listedRequired = ownValue(schema, 'required') ?? [];
  if (!Array.isArray(listedRequired) || listedRequired.some((name) => typeof name !== 'string'))
    return undefined;
  const required = listedRequired as readonly string[];
  const names = new Set(Object.keys(properties));
  return (value, at) => {
    if (typed && !isObject(value)) return [at, `must be object`];
    const object = value as JsonObject;
    for (const name of required)
      if (!Object.hasOwn(object, name) || object[name] === undefined)
        return [at, `must have required property '${name}'`];
    if (other === false) {
      for (const key in object)
        if (Object.hasOwn(object, key) && !names.has(key))
          return [at, `must NOT have additional properties (${key})`];
    } else if (typeof other === 'object') {
      for (const key in object) {
        if (!Object.hasOwn(object, key) || names.has(key)) continue;
        const words = leafWords(other, object[key] as JsonValue);
        if (words !== undefined) return [`${at}/${pointer(key)}`, words];
      }
    }
    for (const [key, worder] of listed) {
      if (!Object.hasOwn(object, key) || object[key] === undefined) continue;
      const words = worder(object[key] as JsonValue, `${at}/${pointer(key)}`);
      if (words !== undefined) return words;
    }
    return undefined;
  };
}

function wordedLeaf(schema: JsonValue | undefined): WordedLeaf | undefined {
  const leaf = leafCheck(schema);
  if (leaf === undefined) return undefined;
  const type = (schema as JsonSchema)['type'];
  return {
    ...leaf,
    typeText: type === undefined ? undefined : Array.isArray(type) ? type.join(',') : String(type),
  };
}

function leafWords(leaf: WordedLeaf, value: JsonValue): string | undefined {
  if (passesLeaf(leaf, value)) return undefined;
  if (leaf.types !== 0 && !passesLeaf({ types: leaf.types, values: undefined }, value))
    return `must be ${leaf.typeText}`;
  return 'must be equal to one of the allowed values';
}

/** A key as Ajv's instance path spells it (a JSON Pointer token). */
function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
