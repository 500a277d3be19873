import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { compileSchema } from './compile-schema.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { schemaViolation } from './validate-arguments.js';

const leafSchema = fc.oneof(
  fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'number' },
    { type: 'integer' },
    { type: 'boolean' },
    { type: 'null' },
    { type: ['string', 'null'] },
    { type: 'number', minimum: 0, maximum: 10 },
    { type: 'integer', exclusiveMaximum: 5 },
    { type: 'string', format: 'date-time' },
    { type: 'string', format: 'date' },
    { type: 'string', minLength: 2, maxLength: 3 },
  ),
  fc.constantFrom<JsonSchema>(
    { type: 'string', enum: ['a', 'b', 'Zürich'] },
    { enum: [1, '1', null, [1]] },
    { const: 'x' },
    { type: 'string', pattern: '^a' },
    { description: 'anything', default: 'd' },
    { type: 'number', default: 3 },
    { type: 'object' },
    { type: 'array' },
  ),
);
const schema: fc.Arbitrary<JsonSchema> = fc.letrec<{ schema: JsonSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc.record(
      { type: fc.constant('array'), items: tie('schema'), maxItems: fc.constantFrom(1, 3) },
      { requiredKeys: ['type', 'items'] },
    ),
    fc
      .record(
        {
          properties: fc.dictionary(
            fc.constantFrom('a', 'b', 'constructor', 'toString'),
            tie('schema'),
            { maxKeys: 3 },
          ),
          required: fc.subarray(['a', 'b', 'constructor', 'toString']),
          additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        },
        { requiredKeys: ['properties'] },
      )
      .map((object) => ({ type: 'object', ...object }) as JsonSchema),
  ),
})).schema;
const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonValue>(
      'a',
      ' b ',
      'Zu\u0308rich',
      '1',
      ' 2.5 ',
      'yes',
      'off',
      '{"a":1}',
      '[1]',
      '2026-03-30 17:00+02:00',
      '2026-02-30',
      'x',
      1,
      2.5,
      7,
      -1,
      0,
      true,
      false,
      null,
    ),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'constructor', 'toString'), tie('value'), {
      maxKeys: 3,
    }),
  ),
})).value;

describe('compileSchema', () => {
  it('normalises exactly as normaliseBySchema does (property)', () => {
    fc.assert(
      fc.property(schema, value, (drawn, sent) => {
        expect(compileSchema(drawn).normalise(sent)).toEqual(normaliseBySchema(sent, drawn, true));
      }),
      { numRuns: 800 },
    );
  });

  it('judges validity as Ajv does, wherever it judges at all (property)', () => {
    let judged = 0;
    fc.assert(
      fc.property(schema, value, (drawn, sent) => {
        const check = compileSchema(drawn).valid;
        const normalised = normaliseBySchema(sent, drawn, true);
        if (!check) return;
        judged++;
        expect(check(normalised)).toBe(schemaViolation(drawn, normalised) === undefined);
      }),
      { numRuns: 800 },
    );
    // Formats and patterns are left to Ajv; most schemas are judged by the prepared check.
    expect(judged).toBeGreaterThan(250);
  });

  it('leaves schemas beyond its keywords to Ajv', () => {
    expect(compileSchema({ type: 'string', format: 'email' }).valid).toBeUndefined();
    expect(compileSchema({ $ref: '#/$defs/x' }).valid).toBeUndefined();
    expect(
      compileSchema({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } }).valid,
    ).toBeUndefined();
  });
});
