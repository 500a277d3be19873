import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { bestPairing, perfectPairing } from './combine-pairs.js';
import { compileSchema } from './compile-schema.js';
import { leafCheck, passesLeaf } from './leaf-check.js';
import { looseEquals } from './normalise/loose-equals.js';
import { looseString } from './normalise/loose-string.js';
import { isPrintableAscii } from './normalise/printable-ascii.js';
import { checker } from './schema-check.js';
import { schemaViolation } from './validate-arguments.js';

// The compiled scorer's shortcuts, each held to the general code it stands in for.
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'Boston, MA',
    "O'Hare",
    'ZÜRICH',
    'Zu\u0308rich',
    'İstanbul',
    'a\u00a0b',
    '\tx_y-z*^',
  ),
);
const leaf = fc.constantFrom<JsonValue>(
  'a',
  'A',
  ' a ',
  'Paris',
  '',
  '1',
  1,
  1.5,
  0,
  true,
  false,
  null,
  [1],
  { a: 1 },
);

describe('looseEquals', () => {
  it('answers as comparing looseString forms does (property)', () => {
    fc.assert(
      fc.property(text, text, (expected, actual) => {
        const folded = looseString(expected);
        expect(looseEquals(folded, actual, false)).toBe(folded === looseString(actual));
        expect(looseEquals(folded, actual, true)).toBe(
          folded === looseString(actual.normalize('NFC')),
        );
        expect(looseEquals(folded, expected, false)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isPrintableAscii', () => {
  it('agrees with the printable-ASCII pattern (property)', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(isPrintableAscii(value)).toBe(/^[\x20-\x7e]*$/.test(value));
      }),
    );
  });
});

describe('leafCheck', () => {
  const leafSchema = fc.record(
    {
      type: fc.oneof(
        fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array'),
        fc.subarray(['string', 'number', 'integer', 'null'], { minLength: 1 }),
      ),
      enum: fc.array(fc.constantFrom<JsonValue>('a', 'A', 1, 1.5, true, null, ''), {
        maxLength: 4,
      }),
      description: fc.constant('an argument'),
    },
    { requiredKeys: [] },
  );
  it('gives the verdicts of the closure check it stands for (property)', () => {
    fc.assert(
      fc.property(leafSchema, leaf, (schema, value) => {
        const check = leafCheck(schema as JsonSchema);
        if (check === undefined) throw new Error('a type-and-enum schema has a leaf check');
        expect(passesLeaf(check, value)).toBe(checker(schema as JsonValue)?.(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves schemas beyond type and plain values to the closure check', () => {
    expect(leafCheck({ type: 'string', minLength: 1 })).toBeUndefined();
    expect(leafCheck({ enum: [[1]] })).toBeUndefined();
    expect(leafCheck({ type: [] })).toBeUndefined();
  });
});

/** Object schemas of the prepared check's top level: properties drawn from `property`, some required, additionalProperties. */
function objectSchemas(
  property: fc.Arbitrary<JsonSchema>,
  key: fc.Arbitrary<string>,
  required: string[],
): fc.Arbitrary<JsonSchema> {
  return fc
    .record(
      {
        properties: fc.dictionary(key, property, { maxKeys: 4 }),
        required: fc.subarray(required),
        additionalProperties: fc.oneof(fc.boolean(), property),
      },
      { requiredKeys: ['properties'] },
    )
    .map((object) => ({ type: 'object', ...object }) as JsonSchema);
}

describe('compileSchema validSent', () => {
  const property = fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'integer', default: 3 },
    { type: 'boolean', default: 'nope' },
    { type: 'string', enum: ['a', 'b'] },
    { type: 'number', minimum: 0 },
  );
  const schema = objectSchemas(property, fc.constantFrom('a', 'b', 'constructor'), [
    'a',
    'b',
    'c',
    'constructor',
  ]);
  const sent = fc.dictionary(
    fc.constantFrom('a', 'b', 'c', 'constructor', 'toString'),
    fc.constantFrom<JsonValue>('a', ' b ', '3', 3, 2.5, 'yes', true, null, -1),
    { maxKeys: 4 },
  );
  it('judges the sent arguments as checking their normalised copy does (property)', () => {
    fc.assert(
      fc.property(schema, sent, (drawn, value) => {
        const { validSent, valid, normalise } = compileSchema(drawn);
        if (!validSent || !valid)
          throw new Error('an object schema in the subset is checked member by member');
        expect(validSent(value)).toBe(valid(normalise(value)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('compileSchema word', () => {
  // Leaf property schemas (the worder's subset) and a few beyond it (then Ajv words the violation).
  const property = fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'integer', default: 3 },
    { type: 'boolean', default: 'nope' },
    { type: 'string', enum: ['a', 'b'] },
    { type: ['string', 'null'], description: 'either' },
    { type: ['integer', 'boolean'], enum: [1, true, 'a'] },
    { enum: [3, 'a', null] },
    { type: 'number' },
    {},
    { type: 'number', minimum: 0 },
    { type: 'array', items: { type: 'string' } },
  );
  const key = fc.constantFrom('a', 'b', 'constructor', 'x/y', 'm~n', '');
  const schema = objectSchemas(property, key, ['a', 'b', 'c', 'constructor', 'x/y']);
  const sent = fc.dictionary(
    fc.oneof(key, fc.constantFrom('c', 'toString', 'q/r')),
    fc.constantFrom<JsonValue>('a', ' b ', '3', 3, 2.5, 'yes', true, null, -1, ['a'], { a: 1 }),
    { maxKeys: 5 },
  );
  it('words the first violation of normalised arguments as Ajv words it, or leaves it to Ajv (property)', () => {
    let worded = 0;
    fc.assert(
      fc.property(schema, sent, (drawn, value) => {
        const { word, valid, normalise } = compileSchema(drawn);
        const normalised = normalise(value) as { readonly [key: string]: JsonValue };
        if (valid?.(normalised) !== false || word === undefined) return;
        const words = word(normalised);
        if (words === undefined) return;
        worded++;
        expect(words).toBe(schemaViolation(drawn, normalised));
      }),
      { numRuns: 1000 },
    );
    // Most violations in the subset are worded here, not by Ajv.
    expect(worded).toBeGreaterThan(150);
  });

  it('words only schemas whose properties and additionalProperties are leaves', () => {
    expect(
      compileSchema({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }).word,
    ).toBeUndefined();
    expect(
      compileSchema({ type: 'object', additionalProperties: { type: 'array', items: {} } }).word,
    ).toBeUndefined();
    expect(
      compileSchema({ type: 'object', properties: { a: { enum: ['x'] } }, required: ['a'] }).word?.(
        {},
      ),
    ).toBe("(arguments): must have required property 'a'");
  });
});

describe('perfectPairing', () => {
  const matrix = fc.integer({ min: 2, max: 5 }).chain((size) =>
    fc.array(fc.array(fc.constantFrom(0, 0.25, 0.5, 1), { minLength: size, maxLength: size }), {
      minLength: size,
      maxLength: size,
    }),
  );
  it('answers only when Munkres would give the same assignment (property)', () => {
    let answered = 0;
    fc.assert(
      fc.property(matrix, (scores) => {
        const perfect = perfectPairing(scores);
        if (perfect === undefined) return;
        answered++;
        expect(perfect).toEqual(bestPairing(scores));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(20);
  });
});
