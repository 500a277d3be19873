import type { JsonValue } from '../trace/trace.js';
import type { ActualCall } from './types.js';

export type ParsedCallArguments =
  | { readonly ok: true; readonly value: { readonly [name: string]: JsonValue } }
  | { readonly ok: false; readonly error: string };

/**
 * A call's arguments as an object: a JSON string (OpenAI) is parsed, an object taken as is,
 * an empty string or null read as `{}`. Anything else is `invalid_json`.
 */
export function parseCallArguments(call: ActualCall): ParsedCallArguments {
  const raw = call.arguments;
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === ''))
    return { ok: true, value: {} };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      error: `arguments are not a JSON object: ${JSON.stringify(value).slice(0, 100)}`,
    };
  return { ok: true, value: value as { [name: string]: JsonValue } };
}
