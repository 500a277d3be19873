import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { annotations } from './schema-check.js';

/**
 * The check of a leaf property schema (`type` and an `enum` of plain values, the shape nearly every
 * tool argument has) as data rather than closures: a bit set of allowed types and the allowed
 * values, read inline by the scorer's walk. Same verdicts as schema-check.ts gives.
 */
export interface LeafCheck {
  /** Allowed types as bits (`typeBits`); 0: any type. */
  readonly types: number;
  /** Allowed values, every one a string, number, boolean or null; undefined: any value. */
  readonly values: readonly JsonValue[] | undefined;
}

const bits: { readonly [type: string]: number } = {
  object: 1,
  array: 2,
  string: 4,
  number: 8,
  integer: 16,
  boolean: 32,
  null: 64,
};

/** The leaf check of a property schema, or undefined when it says more than type and plain values. */
export function leafCheck(schema: JsonValue | undefined): LeafCheck | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  let types = 0;
  let values: JsonValue[] | undefined;
  for (const keyword of Object.keys(schema)) {
    if (annotations.has(keyword)) continue;
    const value = (schema as JsonSchema)[keyword];
    if (keyword === 'type') {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0) return undefined;
      for (const type of list) {
        if (typeof type !== 'string' || !Object.hasOwn(bits, type)) return undefined;
        types |= bits[type] as number;
      }
    } else if (keyword === 'enum') {
      if (!Array.isArray(value) || value.some((item) => typeof item === 'object' && item !== null))
        return undefined;
      values = value;
    } else return undefined;
  }
  return { types, values };
}

/** Whether a value passes a leaf check. */
export function passesLeaf(check: LeafCheck, value: JsonValue): boolean {
  const { types, values } = check;
  if (types !== 0 && (types & typeBitsOf(value)) === 0) return false;
  if (values === undefined) return true;
  for (const allowed of values) if (allowed === value) return true;
  return false;
}

/** The type bits a value has (an integral number is both number and integer). */
function typeBitsOf(value: JsonValue): number {
  switch (typeof value) {
    case 'string':
      return 4;
    case 'number':
      // Ajv's integer test, kept exactly.
      return !(value % 1) && !Number.isNaN(value) ? 24 : 8;
    case 'boolean':
      return 32;
    default:
      return value === null ? 64 : Array.isArray(value) ? 2 : 1;
  }
}
