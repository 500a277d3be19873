import { ownValue, setOwn } from '../../scoring/own.js';
import type { JsonValue } from '../../trace/trace.js';
import type { BfclFunction } from './read-bfcl-lines.js';
import { isObject } from './read-bfcl-lines.js';

type JsonObject = { readonly [key: string]: JsonValue };

/**
 * BFCL's type names as JSON Schema types: the table BFCL itself applies before offering its
 * functions to an OpenAI-style model (`GORILLA_TO_OPENAPI`, bfcl_eval/constants/type_mappings.py).
 * A type it does not list becomes `string`, as there.
 */
const jsonTypeOf = new Map<string, string>([
  ['integer', 'integer'],
  ['number', 'number'],
  ['float', 'number'],
  ['string', 'string'],
  ['boolean', 'boolean'],
  ['bool', 'boolean'],
  ['array', 'array'],
  ['list', 'array'],
  ['dict', 'object'],
  ['object', 'object'],
  ['tuple', 'array'],
  ['any', 'string'],
  ['byte', 'integer'],
  ['short', 'integer'],
  ['long', 'integer'],
  ['double', 'number'],
  ['char', 'string'],
  ['ArrayList', 'array'],
  ['Array', 'array'],
  ['HashMap', 'object'],
  ['Hashtable', 'object'],
  ['Queue', 'array'],
  ['Stack', 'array'],
  ['Any', 'string'],
  ['String', 'string'],
  ['Bigint', 'integer'],
]);

/** JSON Schema keywords kept from a BFCL parameter; others (`optional`) mean nothing to a validator. */
const kept = [
  'description',
  'enum',
  'default',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
] as const;

/**
 * The name an OpenAI-style model sees: `.` is not allowed in function names there, so BFCL
 * offers `math.factorial` as `math_factorial` and its checker expects that name back.
 */
export function toolNameOf(name: string): string {
  return name.replace(/\./g, '_');
}

/** A BFCL function as an OpenAI tool definition, its parameters as JSON Schema. */
export function bfclTool(fn: BfclFunction): JsonObject {
  return {
    type: 'function',
    function: {
      name: toolNameOf(fn.name),
      ...(fn.description === undefined ? {} : { description: fn.description }),
      parameters: parameterSchema(fn.parameters, true),
    },
  };
}

/** The JSON Schema type of a parameter's BFCL type name (`float` → `number`). */
export function jsonTypeOfBfcl(type: JsonValue | undefined): string {
  return (typeof type === 'string' ? jsonTypeOf.get(type) : undefined) ?? 'string';
}

function parameterSchema(parameter: JsonObject, top: boolean): JsonObject {
  const schema: { [key: string]: JsonValue } = {
    type: top ? 'object' : jsonTypeOfBfcl(ownValue(parameter, 'type')),
  };
  for (const key of kept) {
    const value = ownValue(parameter, key);
    if (value !== undefined) schema[key] = value;
  }
  const properties = ownValue(parameter, 'properties');
  if (isObject(properties)) {
    const converted: { [key: string]: JsonValue } = {};
    for (const name of Object.keys(properties)) {
      const property = properties[name];
      setOwn(converted, name, parameterSchema(isObject(property) ? property : {}, false));
    }
    schema['properties'] = converted;
  }
  const required = ownValue(parameter, 'required');
  // Only a list of names is JSON Schema's `required`; a few live entries write `required: true` on a property.
  if (Array.isArray(required) && required.every((name) => typeof name === 'string'))
    schema['required'] = required;
  const items = ownValue(parameter, 'items');
  if (isObject(items)) schema['items'] = parameterSchema(items, false);
  return schema;
}
