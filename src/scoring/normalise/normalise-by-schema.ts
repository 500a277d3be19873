import type { JsonSchema, JsonValue } from '../../trace/trace.js';
import { ownValue, setOwn } from '../own.js';
import { normaliseDate, normaliseDateTime } from './normalise-datetime.js';

const numeric = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const truthy = new Set(['true', 'yes', 'y', 'on', '1']);
const falsy = new Set(['false', 'no', 'n', 'off', '0']);

/** Whether the schema's `type` keyword allows `type` (no allocation: this runs for every value scored). */
export function allowsType(schema: JsonSchema | undefined, type: string): boolean {
  const declared = schema === undefined ? undefined : ownValue(schema, 'type');
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

export function child(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  // Property names come from input: `constructor` must not find Object's.
  const value = schema !== undefined && Object.hasOwn(schema, key) ? schema[key] : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

export function subSchema(
  schema: JsonSchema | undefined,
  first: string,
  second?: string,
): JsonSchema | undefined {
  const level = child(schema, first);
  return second === undefined ? level : child(level, second);
}

/** Printable ASCII is already in NFC; skip the (costly) normalisation for it. */
const printableAscii = /^[\x20-\x7e]*$/;

/**
 * Brings a value to its canonical form under a JSON Schema, so equal meanings compare equal:
 * numeric strings become numbers where the schema says number/integer (never booleans: `true`
 * is not 1); "yes"/"off"/"1"… become booleans where it says boolean; strings are NFC-normalised
 * and trimmed; `date-time` and `date` formats become one UTC form; JSON text inside a value is
 * parsed where the schema says object/array; with `defaults`, omitted properties take their
 * schema default. Idempotent: normalising twice changes nothing.
 */
export function normaliseBySchema(
  value: JsonValue,
  schema: JsonSchema | undefined,
  defaults: boolean,
): JsonValue {
  if (typeof value === 'string') {
    const text = (printableAscii.test(value) ? value : value.normalize('NFC')).trim();
    if (schema === undefined) return text;
    const stringAllowed = allowsType(schema, 'string');
    if (
      (allowsType(schema, 'number') || allowsType(schema, 'integer')) &&
      !stringAllowed &&
      numeric.test(text)
    )
      return Number(text);
    if (allowsType(schema, 'boolean') && !stringAllowed) {
      const lower = text.toLowerCase();
      if (truthy.has(lower)) return true;
      if (falsy.has(lower)) return false;
    }
    if (
      (allowsType(schema, 'object') || allowsType(schema, 'array')) &&
      !stringAllowed &&
      /^[[{]/.test(text)
    ) {
      try {
        return normaliseBySchema(JSON.parse(text) as JsonValue, schema, defaults);
      } catch {
        return text;
      }
    }
    const format = ownValue(schema, 'format');
    if (format === 'date-time') return normaliseDateTime(text) ?? text;
    if (format === 'date') return normaliseDate(text) ?? text;
    return text;
  }
  // Containers are copied only when something inside changes: most arguments are already canonical.
  if (Array.isArray(value)) {
    const items = subSchema(schema, 'items');
    let result: JsonValue[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = value[index] as JsonValue;
      const normalised = normaliseBySchema(item, items, defaults);
      if (normalised !== item) (result ??= value.slice())[index] = normalised;
    }
    return result ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let result: Record<string, JsonValue> | undefined;
    const properties = subSchema(schema, 'properties');
    const additional = subSchema(schema, 'additionalProperties');
    for (const key in value) {
      // Own keys only, without allocating a key list: this runs for every value scored.
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key] as JsonValue;
      const normalised = normaliseBySchema(
        item,
        (properties ? child(properties, key) : undefined) ?? additional,
        defaults,
      );
      if (normalised !== item) setOwn((result ??= { ...value }), key, normalised);
    }
    if (defaults && properties) {
      for (const key of Object.keys(properties)) {
        if (Object.hasOwn(value, key)) continue;
        const propertySchema = child(properties, key);
        const fallback =
          propertySchema === undefined ? undefined : ownValue(propertySchema, 'default');
        if (fallback !== undefined)
          setOwn(
            (result ??= { ...value }),
            key,
            normaliseBySchema(fallback, propertySchema, defaults),
          );
      }
    }
    return result ?? value;
  }
  return value;
}
