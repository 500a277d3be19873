import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { normaliseDateTime } from './normalise/normalise-datetime.js';
import { setOwn } from './own.js';

// Shared leaf schemas: inferred schemas are read, never changed.
const numberSchema: JsonSchema = { type: 'number' };
const booleanSchema: JsonSchema = { type: 'boolean' };
const stringSchema: JsonSchema = { type: 'string' };
const dateTimeSchema: JsonSchema = { type: 'string', format: 'date-time' };
const looksLikeDate = /^\s*\d{4}-/;

/**
 * A schema read off the expected value, for cases scored without the tool's schema: numbers
 * make numeric strings comparable, booleans make "yes" comparable, ISO date-times compare as
 * instants. Nothing is invented beyond what the expected value shows.
 */
export function inferSchema(value: JsonValue | undefined): JsonSchema | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return numberSchema;
  if (typeof value === 'boolean') return booleanSchema;
  if (typeof value === 'string')
    return looksLikeDate.test(value) && normaliseDateTime(value) !== undefined
      ? dateTimeSchema
      : stringSchema;
  if (Array.isArray(value)) {
    const items = inferSchema(value[0]);
    return items ? { type: 'array', items } : { type: 'array' };
  }
  const properties: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) {
    const inferred = inferSchema(item);
    if (inferred) setOwn(properties, key, inferred);
  }
  return { type: 'object', properties };
}
