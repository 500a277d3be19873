import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, JsonValue } from '../trace/trace.js';

const ajv = new Ajv2020({ allErrors: false, strict: false, validateSchema: false });
addFormats.default(ajv);
/** Validators compiled once per schema object. */
const compiled = new WeakMap<JsonSchema, ValidateFunction | null>();

/**
 * Checks arguments against a tool's parameter schema. Returns the first violation as
 * `path: message`, or undefined when valid (or when the schema itself cannot be compiled,
 * which is the suite's problem, not the agent's).
 */
export function schemaViolation(schema: JsonSchema, value: JsonValue): string | undefined {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate);
  }
  if (!validate || validate(value)) return undefined;
  const error = validate.errors?.[0];
  const path = error?.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '(arguments)';
  const extra = error?.keyword === 'additionalProperties' ? ` (${String((error.params as Record<string, unknown>)['additionalProperty'])})` : '';
  return `${path}: ${error?.message ?? 'invalid'}${extra}`;
}
