import type { JsonSchema, JsonValue } from '../../trace/trace.js';
import { asArray, asObject, type JsonObject } from '../json-access.js';

/** Keywords whose value is one schema. */
const schemaKeywords: ReadonlySet<string> = new Set(['items', 'not', 'additionalProperties']);
/** Keywords whose value is a list of schemas. */
const schemaListKeywords: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is a map of names to schemas. */
const schemaMapKeywords: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions']);
/** Counts the proto3 JSON mapping sends as strings (they are int64 in Google's Schema message). */
const countKeywords: ReadonlySet<string> = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

/**
 * A Gemini function declaration's `parameters` (Google's OpenAPI 3.0 subset: upper-case `type`
 * such as `"OBJECT"`, `nullable`, counts as strings like `"10"`, `propertyOrdering`, `example`) as
 * the JSON Schema scoring validates against: types lower-cased, `nullable: true` folded into the
 * type (`["string", "null"]`), counts as numbers, `example` as `examples`, the ordering hint and
 * `TYPE_UNSPECIFIED` dropped. A `parametersJsonSchema` is already JSON Schema and is not passed here.
 * Schema: https://ai.google.dev/api/caching#Schema
 */
export function geminiSchemaToJsonSchema(value: JsonValue | undefined): JsonSchema {
  const schema = asObject(value);
  return schema ? convert(schema) : {};
}

function convert(schema: JsonObject): JsonSchema {
  const entries: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(schema)) {
    if (key === 'type' || key === 'nullable' || key === 'propertyOrdering') continue;
    if (key === 'example') entries.push(['examples', [item]]);
    else if (schemaKeywords.has(key) && asObject(item))
      entries.push([key, convert(asObject(item) ?? {})]);
    else if (schemaListKeywords.has(key))
      entries.push([key, asArray(item).map((entry) => convert(asObject(entry) ?? {}))]);
    else if (schemaMapKeywords.has(key) && asObject(item))
      entries.push([
        key,
        Object.fromEntries(
          Object.entries(asObject(item) ?? {}).map(([name, entry]) => [
            name,
            convert(asObject(entry) ?? {}),
          ]),
        ),
      ]);
    else if (countKeywords.has(key) && typeof item === 'string' && /^\d+$/.test(item))
      entries.push([key, Number(item)]);
    else entries.push([key, item]);
  }
  const type = typeOf(schema['type'], schema['nullable'] === true);
  return Object.fromEntries(type === undefined ? entries : [['type', type], ...entries]);
}

function typeOf(type: JsonValue | undefined, nullable: boolean): JsonValue | undefined {
  const names = (Array.isArray(type) ? type : [type])
    .filter((name): name is string => typeof name === 'string' && name !== 'TYPE_UNSPECIFIED')
    .map((name) => name.toLowerCase());
  if (nullable && names.length > 0 && !names.includes('null')) names.push('null');
  if (names.length === 0) return undefined;
  return names.length === 1 ? names[0] : names;
}
