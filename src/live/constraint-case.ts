import type { ArgumentRule, MatchingStrategy, TestCase } from '../scoring/types.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import type { ArgumentConstraint } from './policy-types.js';

/**
 * The one-argument case a constraint is scored as, built once per constraint and tool: scoreCall
 * compiles a case the first time it sees the object, so a case made afresh per live call was
 * checked and compiled per call (and its caches filled the garbage collector's work).
 */
const cases = new WeakMap<ArgumentConstraint, Map<string, TestCase>>();

export function caseFor(
  constraint: ArgumentConstraint,
  strategy: MatchingStrategy,
  path: string,
  tool: string,
  expected: JsonValue,
): TestCase {
  let byTool = cases.get(constraint);
  if (!byTool) cases.set(constraint, (byTool = new Map<string, TestCase>()));
  const key = `${tool}\n${path}`;
  let made = byTool.get(key);
  if (!made) {
    const { required: _required, min: _min, max: _max, value: _value, ...rest } = constraint;
    const rule: ArgumentRule = { ...rest, matching_strategy: strategy };
    byTool.set(
      key,
      (made = {
        expected_tool: tool,
        arguments: nest(path, expected),
        rules: { [path]: rule },
        extra_arguments: 'ignore',
      }),
    );
  }
  return made;
}

/**
 * One-argument schemas by text, least recently used first: every captured request brings its
 * tools' schemas as new objects, and the scorer prepares a schema once per object, so the same
 * schema is handed back as the same object. Bounded for a proxy that sees ever new schemas.
 */
const nestedByText = new Map<string, JsonSchema>();
const maxNestedSchemas = 1_000;
/** The same by the argument's schema object: a shared schema (`sharedSchema`) skips the text. */
const nestedByObject = new WeakMap<JsonSchema, Map<string, JsonSchema>>();

export function nestedSchema(path: string, own: JsonSchema): JsonSchema {
  let byPath = nestedByObject.get(own);
  const known = byPath?.get(path);
  if (known) return known;
  const nested = recently(nestedByText, `${path}\n${JSON.stringify(own)}`, maxNestedSchemas, () =>
    nestSchema(path, own),
  );
  if (!byPath) nestedByObject.set(own, (byPath = new Map<string, JsonSchema>()));
  byPath.set(path, nested);
  return nested;
}

/**
 * Tool schemas by text, least recently used first, as the first object of each text: the schema
 * a live call is checked against arrives as a new object with every request, and the validator
 * cache and `nestedSchema` look a schema up by object before they serialise it. Handing back
 * one object per text lets every later round find it by object (and keeps the validator cache's
 * weak map from taking a new key per round). Bounded for a proxy that sees ever new schemas.
 */
const sharedByText = new Map<string, JsonSchema>();
const maxSharedSchemas = 1_000;

export function sharedSchema(schema: JsonSchema): JsonSchema {
  return recently(sharedByText, JSON.stringify(schema), maxSharedSchemas, () => schema);
}

/** The value cached under `key`, made on a miss; the least recently used goes past `capacity`. */
function recently<T>(cache: Map<string, T>, key: string, capacity: number, make: () => T): T {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else {
    value = make();
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, value);
  return value;
}

/** The schema of one argument (a dotted path through `properties`, split), when the tool declares it. */
export function schemaAt(
  schema: JsonSchema | undefined,
  parts: readonly string[],
): JsonSchema | undefined {
  let current: JsonValue | undefined = schema;
  for (const part of parts) {
    const properties: JsonValue | undefined =
      current !== null &&
      typeof current === 'object' &&
      !Array.isArray(current) &&
      Object.hasOwn(current, 'properties')
        ? current['properties']
        : undefined;
    current =
      properties !== null &&
      typeof properties === 'object' &&
      !Array.isArray(properties) &&
      Object.hasOwn(properties, part)
        ? properties[part]
        : undefined;
  }
  return current !== null && typeof current === 'object' && !Array.isArray(current)
    ? current
    : undefined;
}

/** A schema declaring only the argument at `path`, with its own schema: nothing else is required or refused. */
function nestSchema(path: string, schema: JsonSchema): JsonSchema {
  return path
    .split('.')
    .reverse()
    .reduce<JsonSchema>(
      (inner, part) => ({ type: 'object', properties: { [part]: inner } }),
      schema,
    );
}

function nest(path: string, value: JsonValue): { [key: string]: JsonValue } {
  const parts = path.split('.');
  let nested: JsonValue = value;
  for (let index = parts.length - 1; index > 0; index--)
    nested = { [parts[index] as string]: nested };
  return { [parts[0] as string]: nested };
}
