import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { inferSchema } from './infer-schema.js';
import { child, normaliseBySchema, subSchema } from './normalise/normalise-by-schema.js';

/** The schema of a node is inferred from the expected value at that node (what `inferSchema` of the whole would give there). */
const inferred = Symbol('inferred');
type SchemaAt = JsonSchema | undefined | typeof inferred;

/**
 * Whether rule-less arguments, checked against a schema inferred from the expectation, would
 * score 1 with no mismatch — decided in one walk without copying either side. The full
 * comparison normalises both sides into new objects and builds paths for every argument; most
 * calls in a passing suite match, so this answers them first and leaves only the calls that
 * need explaining to it. Conservative by design: anything it is unsure of (a placeholder, an
 * omitted marker, JSON text where an object is expected) answers false and takes the full path,
 * so it can never pass a call the full comparison would fail.
 */
export function equalAfterNormalising(
  expected: JsonValue,
  actual: JsonValue,
  extra: 'ignore' | 'penalize' | 'fail',
): boolean {
  return equalAt(expected, actual, inferred, extra !== 'ignore');
}

function equalAt(
  expected: JsonValue,
  actual: JsonValue,
  at: SchemaAt,
  strictKeys: boolean,
): boolean {
  if (typeof expected !== 'object' || expected === null) {
    if (typeof expected === 'string' && expected.includes('{{')) return false;
    // Equal values normalise to equal values: only differing ones need the normaliser.
    if (expected === actual) return true;
    if (typeof actual === 'object' && actual !== null) return false;
    const schema = at === inferred ? inferSchema(expected) : at;
    const left = normaliseBySchema(expected, schema, true);
    const right = normaliseBySchema(actual, schema, true);
    return left === right && (typeof left !== 'object' || left === null);
  }
  if (typeof actual !== 'object' || actual === null) return false;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    // Every element is read with the schema inferred from the first, as inferSchema does.
    const items = at === inferred ? inferSchema(expected[0]) : subSchema(at, 'items');
    for (let index = 0; index < expected.length; index++)
      if (!equalAt(expected[index] as JsonValue, actual[index] as JsonValue, items, strictKeys))
        return false;
    return true;
  }
  if (Array.isArray(actual) || Object.hasOwn(expected, '$omitted')) return false;
  const properties = at === inferred ? undefined : subSchema(at, 'properties');
  const additional = at === inferred ? undefined : subSchema(at, 'additionalProperties');
  // for…in with own-key checks: no key list allocated on the path most calls take.
  let keys = 0;
  for (const key in expected) {
    if (!Object.hasOwn(expected, key)) continue;
    keys++;
    const value = Object.hasOwn(actual, key)
      ? (actual as { readonly [key: string]: JsonValue })[key]
      : undefined;
    const schema =
      at === inferred
        ? inferred
        : ((properties ? child(properties, key) : undefined) ?? additional);
    if (value === undefined || !equalAt(expected[key] as JsonValue, value, schema, strictKeys))
      return false;
  }
  // Every expected key was found in actual: equal counts mean no key beyond them.
  if (strictKeys) for (const key in actual) if (Object.hasOwn(actual, key)) keys--;
  return !strictKeys || keys === 0;
}
