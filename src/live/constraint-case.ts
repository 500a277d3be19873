import { keyedSchemaCache, schemaCache } from '../scoring/schema-cache.js';
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
 * One-argument schemas, one object per path and argument schema text: every captured request
 * brings its tools' schemas as new objects, and the scorer prepares a schema once per object, so
 * the same schema is handed back as the same object. A shared tool schema (`sharedSchema`) brings
 * the same argument schema objects, found without serialising. Bounded for a proxy that sees
 * ever new schemas.
 */
const nested = keyedSchemaCache((own, path) => nestSchema(path, own), 1_000);

export function nestedSchema(path: string, own: JsonSchema): JsonSchema {
  return nested.get(own, path);
}

/**
 * Tool schemas as the first object of each text: the schema a live call is checked against
 * arrives as a new object with every request, and the validator cache and `nestedSchema` look a
 * schema up by object before they serialise it. Handing back one object per text lets every
 * later round find it by object (and keeps the validator cache's weak map from taking a new key
 * per round; this cache itself remembers only the first object of each text). Bounded for a
 * proxy that sees ever new schemas.
 */
const shared = schemaCache((schema) => schema, 1_000, { remember: 'first' });

export function sharedSchema(schema: JsonSchema): JsonSchema {
  return shared.get(schema);
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
