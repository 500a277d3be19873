import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { ajvSchemaViolation, schemaCompileError, schemaViolation } from './validate-arguments.js';

const copy = <T>(value: T): T => structuredClone(value);

describe('schemaViolation', () => {
  it('validates a schema that arrives as a new object on every call (each captured request parses its tools afresh)', () => {
    const schema: JsonSchema = {
      $id: 'https://example.com/transfer',
      type: 'object',
      properties: { amount: { type: 'number' } },
      required: ['amount'],
    };
    for (let index = 0; index < 5; index++) {
      // Same $id every time: a schema registered under its id would refuse the second object.
      expect(schemaViolation(copy(schema), { amount: 'lots' })).toBe('amount: must be number');
      expect(schemaViolation(copy(schema), { amount: 5 })).toBeUndefined();
    }
  });

  it('gives the same answer for a fresh copy as for the original, whatever the schema and value', () => {
    const leaf = fc.constantFrom<JsonSchema>(
      { type: 'string' },
      { type: 'number' },
      { type: 'integer', minimum: 0 },
      { enum: ['a', 'b'] },
      { type: 'string', format: 'email' },
    );
    const schemas = fc
      .dictionary(fc.constantFrom('a', 'b', 'c'), leaf)
      .map((properties): JsonSchema => ({
        type: 'object',
        properties,
        required: Object.keys(properties).slice(0, 1),
        additionalProperties: false,
      }));
    fc.assert(
      fc.property(
        schemas,
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.jsonValue()),
        (schema, value) => {
          expect(schemaViolation(copy(schema), value as JsonValue)).toBe(
            schemaViolation(schema, value as JsonValue),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps validating correctly after more distinct schemas than it keeps validators for', () => {
    const numbered = (index: number): JsonSchema => ({
      type: 'object',
      properties: { [`field${index}`]: { type: 'number' } },
      required: [`field${index}`],
    });
    for (let index = 0; index < 2_100; index++)
      expect(schemaViolation(numbered(index), {})).toBe(
        `(arguments): must have required property 'field${index}'`,
      );
    expect(schemaViolation(numbered(0), { field0: 1 })).toBeUndefined();
    expect(schemaViolation(numbered(0), { field0: 'x' })).toBe('field0: must be number');
  });
});

describe('issue 30: a lookup by an inherited name never reaches Ajv', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'what a lookup by %s finds (a function) is a (schema) violation, not an ajv.removeSchema throw',
    (name) => {
      const found = ({} as Record<string, unknown>)[name] as JsonSchema;
      expect(schemaViolation(found, {})).toBe(
        "(schema): the tool's schema does not compile: the schema is not a JSON Schema object",
      );
    },
  );
});

describe('schemaViolation on simple schemas (checked by the closure walk, Ajv compiled only for words the walk lacks)', () => {
  const text = fc.constantFrom<JsonValue>('a', 'B', '', 'long text', '3');
  const plain = fc.oneof(text, fc.constantFrom<JsonValue>(0, 1, -2, 2.5, 1e21, true, false, null));
  const leaf: fc.Arbitrary<JsonSchema> = fc.record(
    {
      type: fc.oneof(
        fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array'),
        fc.subarray(['string', 'number', 'integer', 'null'], { minLength: 1 }),
      ),
      enum: fc.array(plain, { minLength: 1, maxLength: 4 }),
      minimum: fc.constantFrom(0, 1.5),
      maxLength: fc.constantFrom(0, 3),
      description: fc.constant('an argument'),
      default: plain,
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonSchema>;
  const key = fc.constantFrom('a', 'b', 'constructor', 'x/y', 'm~n');
  const schema: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ type: fc.constant('array'), items: tie('node') }) as fc.Arbitrary<JsonSchema>,
      fc
        .record(
          {
            type: fc.constant('object'),
            properties: fc.dictionary(key, tie('node'), { maxKeys: 3 }),
            required: fc.subarray(['a', 'b', 'constructor', 'x/y']),
            additionalProperties: fc.oneof(fc.boolean(), leaf),
          },
          { requiredKeys: ['type', 'properties'] },
        )
        .map((object) => object as JsonSchema),
    ),
  })).node;
  const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      plain,
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.oneof(key, fc.constantFrom('c', 'toString')), tie('value'), {
        maxKeys: 4,
      }),
    ),
  })).value;

  it('gives exactly what Ajv gives, for every schema and value of the subset (property)', () => {
    fc.assert(
      fc.property(schema, value, (drawn, sent) => {
        expect(schemaViolation(copy(drawn), sent)).toBe(ajvSchemaViolation(drawn, sent));
      }),
      { numRuns: 300 },
    );
  });

  it('calls every schema of the subset compilable, as Ajv does (property)', () => {
    fc.assert(
      fc.property(schema, (drawn) => {
        expect(schemaCompileError(copy(drawn))).toBeUndefined();
        expect(ajvSchemaViolation(drawn, null) ?? '').not.toMatch(/^\(schema\)/);
      }),
      { numRuns: 300 },
    );
  });
});
