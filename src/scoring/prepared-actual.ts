import type { JsonSchema, JsonValue } from '../trace/trace.js';
import type { CompiledSchema } from './compile-schema.js';
import type { JsonObject } from './member-keys.js';
import { ownValue } from './own.js';
import { parseCallArguments } from './parse-arguments.js';
import type { ActualCall, ScoreOptions } from './types.js';
import { schemaViolation } from './validate-arguments.js';

/**
 * An actual call as one scoring sees it: its declared schema looked up once, its arguments parsed
 * once, checked once per schema — however many expected calls it is compared with (parallel calls
 * compare every pair).
 */
export interface PreparedActual {
  readonly call: ActualCall;
  /** The case's schema for the tool, else the options' (the case's own is the more specific). */
  readonly declared: JsonSchema | undefined;
  /** The parsed arguments, or why they are not an object (undefined until first asked). */
  sent: JsonObject | string | undefined;
  /** The schema last checked against, and its verdict. */
  checked: CompiledSchema | undefined;
  violation: string | undefined;
  /** The normalised copy, built only where a walk or a message needs the whole (and for which schema). */
  normalisedFor: CompiledSchema | undefined;
  normalised: JsonValue;
}

export function prepareActual(
  call: ActualCall,
  caseSchemas: ScoreOptions['schemas'],
  options: ScoreOptions,
): PreparedActual {
  return {
    call,
    declared: ownValue(caseSchemas, call.name) ?? ownValue(options.schemas, call.name),
    sent: undefined,
    checked: undefined,
    violation: undefined,
    normalisedFor: undefined,
    normalised: null,
  };
}

/** The arguments as an object, or the `invalid_json` message (a string). */
export function sentOf(actual: PreparedActual): JsonObject | string {
  if (actual.sent !== undefined) return actual.sent;
  const raw = actual.call.arguments;
  // Most calls arrive parsed (a trajectory, a library caller): take the object as it is.
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return (actual.sent = raw);
  const parsed = parseCallArguments(actual.call);
  return (actual.sent = parsed.ok ? parsed.value : parsed.error);
}

export function normalisedOf(actual: PreparedActual, schema: CompiledSchema): JsonValue {
  if (actual.normalisedFor !== schema) {
    actual.normalisedFor = schema;
    actual.normalised = schema.normalise(sentOf(actual) as JsonObject);
  }
  return actual.normalised;
}

/**
 * Why the arguments break their declared schema, or undefined. The prepared check answers most
 * calls without a normalised copy; a call it does not pass is worded as Ajv words it
 * (word-violation.ts) where the schema is plain enough, else by Ajv; schemas beyond the check
 * are Ajv's to decide.
 */
export function violationOf(
  actual: PreparedActual,
  declared: JsonSchema,
  schema: CompiledSchema,
): string | undefined {
  if (actual.checked === schema) return actual.violation;
  const sent = sentOf(actual) as JsonObject;
  const quick = schema.validSent?.(sent);
  let violation: string | undefined;
  if (quick !== true) {
    const value = normalisedOf(actual, schema);
    if (quick === undefined && schema.valid?.(value) === true) violation = undefined;
    else
      violation =
        (quick === false ? schema.word?.(value as JsonObject) : undefined) ??
        schemaViolation(declared, value);
  }
  actual.checked = schema;
  actual.violation = violation;
  return violation;
}
