import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { schemaCache } from './schema-cache.js';

// ownProperties: a schema requiring `constructor` is not met by Object's constructor.
const ajv = new Ajv2020({
  allErrors: false,
  strict: false,
  validateSchema: false,
  ownProperties: true,
});
addFormats.default(ajv);
/** A validator, or why the schema did not compile. */
type Compiled = ValidateFunction | { readonly error: string };
/**
 * Validators by schema text: every captured request parses its tools afresh, and compiling
 * (milliseconds) per call would dominate live scoring. Bounded, so a long-running proxy seeing
 * ever new schemas keeps a fixed number of validators.
 */
const validators = schemaCache<Compiled>((schema) => {
  let validate: Compiled;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    validate = { error: (error as Error).message };
  }
  // Ajv keeps every compiled schema object in its own cache; this module's caches are the only ones.
  ajv.removeSchema(schema);
  return validate;
}, 2_000);

const notAnObject = { error: 'the schema is not a JSON Schema object' };

function validatorFor(schema: JsonSchema): Compiled {
  // Never handed to Ajv or the cache: Ajv's removeSchema throws on a function (what a lookup by
  // `constructor` on a plain object finds), and it has no JSON text to be cached by.
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return notAnObject;
  return validators.get(schema);
}

/** Why a schema cannot be compiled, or undefined when it can (compiled once, then cached). */
export function schemaCompileError(schema: JsonSchema): string | undefined {
  const validate = validatorFor(schema);
  return typeof validate === 'function' ? undefined : validate.error;
}

/**
 * Checks arguments against a tool's parameter schema. Returns the first violation as
 * `path: message`, or undefined when valid. A schema that cannot be compiled is reported as
 * `(schema): …` rather than skipped: nothing was checked, and saying so is the only honest answer
 * (scoreCall refuses such a schema before scoring).
 */
export function schemaViolation(schema: JsonSchema, value: JsonValue): string | undefined {
  const validate = validatorFor(schema);
  if (typeof validate !== 'function')
    return `(schema): the tool's schema does not compile: ${validate.error}`;
  if (validate(value)) return undefined;
  const error = validate.errors?.[0];
  const path = error?.instancePath
    ? error.instancePath.slice(1).replace(/\//g, '.')
    : '(arguments)';
  const extra =
    error?.keyword === 'additionalProperties'
      ? ` (${String((error.params as Record<string, unknown>)['additionalProperty'])})`
      : '';
  return `${path}: ${error?.message ?? 'invalid'}${extra}`;
}
