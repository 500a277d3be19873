import { jsonEqual } from './json-equal.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { ownValue } from './own.js';

/*
 * The validity check of compile-schema.ts: for the keywords tool schemas use (type, enum, const,
 * required, properties, additionalProperties, items, numeric and length bounds, annotations) a
 * closure-built check that answers what Ajv answers; anything beyond them is left to Ajv.
 */

/** Keywords that never change validity. */
export const annotations = new Set([
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
export type Check = (value: JsonValue) => boolean;

export function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
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
export function checker(schema: JsonValue): Check | undefined {
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
