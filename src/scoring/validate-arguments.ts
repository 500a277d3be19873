import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import type { JsonObject } from './member-keys.js';
import { schemaCache } from './schema-cache.js';
import { checker, isObject, type Check } from './schema-check.js';
import { violationWorder } from './word-violation.js';

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
 * What is kept per schema text. Most tool schemas stay within the keywords schema-check.ts
 * checks (types, enums, required, properties, bounds): for those the closure check answers
 * validity and word-violation.ts words the first error, and Ajv is compiled only when a message
 * is needed that the walk cannot word. Compiling costs a generated function per schema text,
 * far more than checking a call, and `calltape score` and imports see most schemas once.
 */
interface SchemaValidator {
  /** The closure check; undefined when the schema goes beyond its keywords (then Ajv decides). */
  readonly check: Check | undefined;
  readonly word: ((value: JsonObject) => string | undefined) | undefined;
  /** The schema the validator was built from, for Ajv when it is needed. */
  readonly schema: JsonSchema;
  ajv: Compiled | undefined;
}

/**
 * Validators by schema text: every captured request parses its tools afresh, and building
 * per call would dominate live scoring. Bounded, so a long-running proxy seeing ever new
 * schemas keeps a fixed number of validators.
 */
const validators = schemaCache<SchemaValidator>((schema) => {
  const check = checker(schema as JsonValue);
  return {
    check,
    word: check && violationWorder(schema),
    schema,
    ajv: check ? undefined : compileWithAjv(schema),
  };
}, 2_000);

function compileWithAjv(schema: JsonSchema): Compiled {
  let validate: Compiled;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    validate = { error: (error as Error).message };
  }
  // Ajv keeps every compiled schema object in its own cache; this module's caches are the only ones.
  ajv.removeSchema(schema);
  return validate;
}

function ajvOf(validator: SchemaValidator): Compiled {
  return (validator.ajv ??= compileWithAjv(validator.schema));
}

const notAnObject = 'the schema is not a JSON Schema object';

/** The schema's validator; undefined for a value that is no schema object. */
function validatorFor(schema: JsonSchema): SchemaValidator | undefined {
  // Never handed to Ajv or the cache: Ajv's removeSchema throws on a function (what a lookup by
  // `constructor` on a plain object finds), and it has no JSON text to be cached by.
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  return validators.get(schema);
}

/** Why a schema cannot be compiled, or undefined when it can (compiled once, then cached). */
export function schemaCompileError(schema: JsonSchema): string | undefined {
  const validator = validatorFor(schema);
  if (validator === undefined) return notAnObject;
  // Ajv compiles every schema within the closure check's keywords (a property test holds it).
  if (validator.check) return undefined;
  const validate = ajvOf(validator);
  return typeof validate === 'function' ? undefined : validate.error;
}

/**
 * Checks arguments against a tool's parameter schema. Returns the first violation as
 * `path: message`, or undefined when valid. A schema that cannot be compiled is reported as
 * `(schema): …` rather than skipped: nothing was checked, and saying so is the only honest answer
 * (scoreCall refuses such a schema before scoring).
 */
export function schemaViolation(schema: JsonSchema, value: JsonValue): string | undefined {
  const validator = validatorFor(schema);
  if (validator === undefined)
    return `(schema): the tool's schema does not compile: ${notAnObject}`;
  if (validator.check) {
    if (validator.check(value)) return undefined;
    const words = isObject(value) ? validator.word?.(value) : undefined;
    if (words !== undefined) return words;
  }
  return ajvViolation(ajvOf(validator), value);
}

/**
 * The first violation as Ajv alone reports it (compiled now, never cached): the oracle the
 * property test holds the closure walk to.
 */
export function ajvSchemaViolation(schema: JsonSchema, value: JsonValue): string | undefined {
  return ajvViolation(compileWithAjv(schema), value);
}

/** The first violation as Ajv reports it. */
function ajvViolation(validate: Compiled, value: JsonValue): string | undefined {
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
