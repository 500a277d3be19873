import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { leafCheck, passesLeaf, type LeafCheck } from './leaf-check.js';
import type { JsonObject } from './member-keys.js';
import { ownValue } from './own.js';

/** A listed property, or additionalProperties, as a leaf check and the words of its type. */
interface WordedLeaf extends LeafCheck {
  /** `type` as Ajv prints it (`string`, `string,null`); undefined when the schema has no type. */
  readonly typeText: string | undefined;
}

/**
 * The first violation Ajv reports (`validate-arguments.ts`'s `path: message` form), worded
 * without running Ajv, for the schemas tool arguments nearly always have: an object whose
 * properties are leaves (type and plain enum values), with required names and an
 * additionalProperties of true, false or a leaf. Ajv (allErrors off) stops at its first error,
 * checking in this order: the required names in the order listed, then the keys additionalProperties
 * covers in the arguments' order, then the listed properties in the schema's order, each one's type
 * before its enum. Undefined for any other schema, or when nothing is found broken: Ajv has the
 * say then. A property test holds the words to Ajv's.
 */
export function violationWorder(
  schema: JsonSchema,
): ((value: JsonObject) => string | undefined) | undefined {
  const properties = ownValue(schema, 'properties') ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
    return undefined;
  const listed: [string, WordedLeaf][] = [];
  for (const key of Object.keys(properties)) {
    const leaf = wordedLeaf(properties[key]);
    if (leaf === undefined) return undefined;
    listed.push([key, leaf]);
  }
  const extra = ownValue(schema, 'additionalProperties');
  const other = typeof extra === 'boolean' || extra === undefined ? extra : wordedLeaf(extra);
  if (other === undefined && extra !== undefined) return undefined;
  const required = (ownValue(schema, 'required') ?? []) as readonly string[];
  const names = new Set(Object.keys(properties));
  return (value) => {
    for (const name of required)
      if (!Object.hasOwn(value, name) || value[name] === undefined)
        return `(arguments): must have required property '${name}'`;
    if (other === false) {
      for (const key in value)
        if (Object.hasOwn(value, key) && !names.has(key))
          return `(arguments): must NOT have additional properties (${key})`;
    } else if (typeof other === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key) || names.has(key)) continue;
        const words = leafWords(other, value[key] as JsonValue);
        if (words !== undefined) return `${pointer(key)}: ${words}`;
      }
    }
    for (const [key, leaf] of listed) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
      const words = leafWords(leaf, value[key] as JsonValue);
      if (words !== undefined) return `${pointer(key)}: ${words}`;
    }
    return undefined;
  };
}

function wordedLeaf(schema: JsonValue | undefined): WordedLeaf | undefined {
  const leaf = leafCheck(schema);
  if (leaf === undefined) return undefined;
  const type = (schema as JsonSchema)['type'];
  return {
    ...leaf,
    typeText: type === undefined ? undefined : Array.isArray(type) ? type.join(',') : String(type),
  };
}

function leafWords(leaf: WordedLeaf, value: JsonValue): string | undefined {
  if (passesLeaf(leaf, value)) return undefined;
  if (leaf.types !== 0 && !passesLeaf({ types: leaf.types, values: undefined }, value))
    return `must be ${leaf.typeText}`;
  return 'must be equal to one of the allowed values';
}

/** A key as Ajv's instance path spells it (a JSON Pointer token). */
function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
