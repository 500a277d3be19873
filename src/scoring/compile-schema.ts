import { jsonEqual } from './json-equal.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import {
  allowsType,
  child,
  normaliseBySchema,
  subSchema,
} from './normalise/normalise-by-schema.js';
import { ownValue, setOwn } from './own.js';

/**
 * A tool's parameter schema prepared once for the compiled scorer: a normaliser that gives what
 * `normaliseBySchema(value, schema, true)` gives, and — for the keywords tool schemas use (type,
 * enum, const, required, properties, additionalProperties, items, numeric and length bounds,
 * annotations) — a validity check that answers what Ajv answers. Both are built from closures, not
 * generated code: one function body serves every schema, so it is optimised once however many
 * distinct schemas a workload brings (Ajv compiles a new function per schema, which a workload of
 * thousands of schemas runs cold). Ajv stays the authority: it checks schemas beyond these
 * keywords, and writes the message whenever the check says invalid.
 */
export interface CompiledSchema {
  readonly normalise: (value: JsonValue) => JsonValue;
  /** Undefined when the schema uses a keyword outside the subset: ask Ajv. */
  readonly valid: ((value: JsonValue) => boolean) | undefined;
}

const compiled = new WeakMap<JsonSchema, CompiledSchema>();

export function compileSchema(schema: JsonSchema): CompiledSchema {
  let known = compiled.get(schema);
  if (!known)
    compiled.set(schema, (known = { normalise: normaliser(schema), valid: checker(schema) }));
  return known;
}

/** `normaliseBySchema` with the schema's decisions taken once; anything unusual is handed to it. */
function normaliser(schema: JsonSchema | undefined): (value: JsonValue) => JsonValue {
  if (schema === undefined) return (value) => normaliseBySchema(value, undefined, true);
  const stringAllowed = allowsType(schema, 'string');
  const leafOnly =
    !stringAllowed &&
    (allowsType(schema, 'number') ||
      allowsType(schema, 'integer') ||
      allowsType(schema, 'boolean') ||
      allowsType(schema, 'object') ||
      allowsType(schema, 'array'));
  const format = ownValue(schema, 'format');
  const plainStrings = !leafOnly && format !== 'date-time' && format !== 'date';
  const properties = subSchema(schema, 'properties');
  const additional = subSchema(schema, 'additionalProperties');
  const items = subSchema(schema, 'items');
  const memberNormalisers = new Map<string, (value: JsonValue) => JsonValue>();
  const memberOf = (key: string): ((value: JsonValue) => JsonValue) => {
    let found = memberNormalisers.get(key);
    if (!found)
      memberNormalisers.set(
        key,
        (found = normaliser((properties ? child(properties, key) : undefined) ?? additional)),
      );
    return found;
  };
  const itemNormaliser = items === undefined ? undefined : normaliser(items);
  const defaults: [string, JsonValue][] = [];
  for (const key of properties ? Object.keys(properties) : []) {
    const propertySchema = child(properties, key);
    const fallback = propertySchema === undefined ? undefined : ownValue(propertySchema, 'default');
    if (fallback !== undefined)
      defaults.push([key, normaliseBySchema(fallback, propertySchema, true)]);
  }
  const printable = /^[\x20-\x7e]*$/;
  return (value) => {
    if (typeof value === 'string') {
      // Printable text under a plain string schema only needs trimming; everything else takes the general path.
      if (plainStrings && printable.test(value)) return value.trim();
      return normaliseBySchema(value, schema, true);
    }
    if (Array.isArray(value)) {
      let result: JsonValue[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = value[index] as JsonValue;
        const normalised = itemNormaliser
          ? itemNormaliser(item)
          : normaliseBySchema(item, undefined, true);
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
        const normalised = memberOf(key)(item);
        if (normalised !== item) setOwn((result ??= { ...value }), key, normalised);
      }
      for (const [key, fallback] of defaults)
        if (!Object.hasOwn(value, key)) setOwn((result ??= { ...value }), key, fallback);
      return result ?? value;
    }
    return value;
  };
}

/** Keywords that never change validity. */
const annotations = new Set([
  'description',
  'title',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const types = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
type Check = (value: JsonValue) => boolean;

function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeCheck(type: string): Check {
  switch (type) {
    case 'object':
      return isObject;
    case 'array':
      return Array.isArray;
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number';
    case 'integer':
      // Ajv's integer test, kept exactly.
      return (value) => typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    default:
      return (value) => value === null;
  }
}

/** Code points, as Ajv counts string length. */
function length(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function bound(schema: JsonSchema, keyword: string): number | undefined | null {
  const value = ownValue(schema, keyword);
  return value === undefined ? undefined : typeof value === 'number' ? value : null;
}

/** The subset check, or undefined when the schema goes beyond it (anywhere inside). */
function checker(schema: JsonValue): Check | undefined {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (!isObject(schema)) return undefined;
  const checks: Check[] = [];
  for (const keyword of Object.keys(schema)) {
    if (annotations.has(keyword)) continue;
    const value = schema[keyword] as JsonValue;
    switch (keyword) {
      case 'type': {
        const list = Array.isArray(value) ? value : [value];
        if (list.length === 0 || list.some((type) => typeof type !== 'string' || !types.has(type)))
          return undefined;
        const each = list.map((type) => typeCheck(type as string));
        checks.push(
          each.length === 1
            ? (each[0] as Check)
            : (item) => {
                for (const check of each) if (check(item)) return true;
                return false;
              },
        );
        break;
      }
      case 'enum':
        if (!Array.isArray(value)) return undefined;
        checks.push((item) => {
          for (const allowed of value)
            if (allowed === item || jsonEqual(allowed, item)) return true;
          return false;
        });
        break;
      case 'const':
        checks.push((item) => jsonEqual(value, item));
        break;
      case 'required': {
        if (!Array.isArray(value) || value.some((name) => typeof name !== 'string'))
          return undefined;
        const names = value as string[];
        checks.push((item) => {
          if (!isObject(item)) return true;
          for (const name of names)
            if (!Object.hasOwn(item, name) || item[name] === undefined) return false;
          return true;
        });
        break;
      }
      case 'properties': {
        if (!isObject(value)) return undefined;
        const members: [string, Check][] = [];
        for (const name of Object.keys(value)) {
          const check = checker(value[name] as JsonValue);
          if (!check) return undefined;
          members.push([name, check]);
        }
        checks.push((item) => {
          if (!isObject(item)) return true;
          for (const [name, check] of members)
            if (
              Object.hasOwn(item, name) &&
              item[name] !== undefined &&
              !check(item[name] as JsonValue)
            )
              return false;
          return true;
        });
        break;
      }
      case 'additionalProperties': {
        const check = checker(value);
        if (!check) return undefined;
        const declared = ownValue(schema, 'properties');
        const listed = isObject(declared ?? null)
          ? new Set(Object.keys(declared as object))
          : new Set<string>();
        checks.push((item) => {
          if (!isObject(item)) return true;
          for (const name in item)
            if (Object.hasOwn(item, name) && !listed.has(name) && !check(item[name] as JsonValue))
              return false;
          return true;
        });
        break;
      }
      case 'items': {
        if (Array.isArray(value)) return undefined;
        const check = checker(value);
        if (!check) return undefined;
        checks.push((item) => {
          if (!Array.isArray(item)) return true;
          for (const element of item) if (!check(element)) return false;
          return true;
        });
        break;
      }
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        const limit = bound(schema, keyword);
        if (limit === null || limit === undefined) return undefined;
        const test =
          keyword === 'minimum'
            ? (n: number) => n >= limit
            : keyword === 'maximum'
              ? (n: number) => n <= limit
              : keyword === 'exclusiveMinimum'
                ? (n: number) => n > limit
                : (n: number) => n < limit;
        checks.push((item) => typeof item !== 'number' || test(item));
        break;
      }
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems': {
        const limit = bound(schema, keyword);
        if (limit === null || limit === undefined) return undefined;
        const size = keyword.endsWith('Length')
          ? (item: JsonValue) => (typeof item === 'string' ? length(item) : undefined)
          : (item: JsonValue) => (Array.isArray(item) ? item.length : undefined);
        const minimum = keyword.startsWith('min');
        checks.push((item) => {
          const count = size(item);
          return count === undefined || (minimum ? count >= limit : count <= limit);
        });
        break;
      }
      default:
        return undefined;
    }
  }
  if (checks.length === 1) return checks[0] as Check;
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
}
