import type { JsonSchema, JsonValue, ParsedArguments } from '../trace/trace.js';

/** Narrow accessors over untrusted wire JSON: wrong shapes read as undefined, never throw. */

export type JsonObject = { readonly [key: string]: JsonValue };

export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

export function asArray(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function asBoolean(value: JsonValue | undefined): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function asSchema(value: JsonValue | undefined): JsonSchema {
  return asObject(value) ?? {};
}

/** Parses JSON text; the error message is kept for the trace. */
export function parseJson(text: string): ParsedArguments {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
