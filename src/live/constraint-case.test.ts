import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../trace/trace.js';
import { nestedSchema, sharedSchema } from './constraint-case.js';

const parse = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;

describe('sharedSchema', () => {
  it('hands back the first object of each schema text, and a schema of another text as itself', () => {
    const first: JsonSchema = { type: 'object', properties: { city: { type: 'string' } } };
    expect(sharedSchema(first)).toBe(first);
    // What a later request parses: a new object of the same text.
    expect(sharedSchema(parse(first))).toBe(first);
    const other: JsonSchema = { type: 'object', properties: { city: { type: 'number' } } };
    expect(sharedSchema(other)).toBe(other);
  });

  it('hands back a schema of the same text as the one given (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const schema = { type: 'object', default: value } as JsonSchema;
        expect(JSON.stringify(sharedSchema(parse(schema)))).toBe(JSON.stringify(schema));
      }),
    );
  });
});

describe('nestedSchema', () => {
  it('is one object per path and argument schema, whether found by object or by text', () => {
    const own: JsonSchema = { type: 'string', enum: ['celsius', 'fahrenheit'] };
    const nested = nestedSchema('a.unit', own);
    expect(nested).toEqual({
      type: 'object',
      properties: { a: { type: 'object', properties: { unit: own } } },
    });
    expect(nestedSchema('a.unit', own)).toBe(nested);
    expect(nestedSchema('a.unit', parse(own))).toBe(nested);
    expect(nestedSchema('unit', own)).toEqual({ type: 'object', properties: { unit: own } });
  });
});
