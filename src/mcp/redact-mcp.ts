import { isSecretName } from '../cassette/credential-values.js';
import type { Redactor } from '../cassette/redact.js';
import type { JsonValue } from '../trace/trace.js';
import type { JsonRpcError } from './json-rpc.js';

/**
 * Redacts an MCP request's params before they are stored or keyed: values under
 * credential-named keys become "REDACTED" at any depth, and the configured body patterns run
 * over every string. Replay keys the request after the same step, so a redacted argument still
 * matches its recording.
 */
export function redactMcpParams(
  value: JsonValue | undefined,
  redactor: Redactor,
): JsonValue | undefined {
  return redactValue(value, redactor, true);
}

/**
 * Redacts an answer before it is stored: the configured body patterns only. Names are not
 * judged here, because an answer's keys are the server's vocabulary (a tools/list schema may
 * well declare an `api_key` parameter, which replay must serve intact).
 */
export function redactMcpResult(
  value: JsonValue | undefined,
  redactor: Redactor,
): JsonValue | undefined {
  return redactValue(value, redactor, false);
}

/** Redacts a JSON-RPC error before it is stored or shown: its message and data, as an answer is. */
export function redactMcpError(error: JsonRpcError, redactor: Redactor): JsonRpcError {
  const data = redactMcpResult(error.data, redactor);
  return {
    code: error.code,
    message: redactor.text(error.message),
    ...(data !== undefined ? { data } : {}),
  };
}

function redactValue(
  value: JsonValue | undefined,
  redactor: Redactor,
  byName: boolean,
): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value))
    return value.map((item) => redactValue(item, redactor, byName) as JsonValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value))
    out[key] =
      byName && isSecretName(key) && item !== null
        ? 'REDACTED'
        : (redactValue(item, redactor, byName) as JsonValue);
  return out;
}
