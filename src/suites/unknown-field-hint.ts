import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { configSchemaFile } from '../config/schema-validator.js';
import { nearestName } from '../nearest-name.js';

/**
 * ` (did you mean expected_tool?)` for an unknown field that is a typo of a field the schema
 * allows there (the rule cassette names use, nearest-name.ts), else `''`. Reads the failing
 * (sub)schema from the error (the validator runs verbose): its `properties`, and those of the
 * config/ schema an `allOf` refers to (a suite's case is test-case.schema.json plus its own).
 */
export function unknownFieldHint(error: ErrorObject, field: string): string {
  const meant = nearestName(field, allowedFields(error.parentSchema));
  return meant === undefined || meant === field ? '' : ` (did you mean ${meant}?)`;
}

function allowedFields(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const own = isObject(schema['properties']) ? Object.keys(schema['properties']) : [];
  const parts = Array.isArray(schema['allOf']) ? (schema['allOf'] as unknown[]) : [];
  return [
    ...own,
    ...parts.flatMap((part) => {
      const reference = isObject(part) ? part['$ref'] : undefined;
      // Only a whole config/ schema by file name (no fragment): the one form the suite schema uses.
      return typeof reference === 'string' && /^[\w.-]+\.schema\.json$/.test(reference)
        ? allowedFields(referencedSchema(reference))
        : allowedFields(part);
    }),
  ];
}

const read = new Map<string, unknown>();

function referencedSchema(name: string): unknown {
  if (!read.has(name)) read.set(name, JSON.parse(readFileSync(configSchemaFile(name), 'utf8')));
  return read.get(name);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
