import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../trace/trace.js';
import { trimmedPrintableAscii } from './normalise/printable-ascii.js';
import { ownEnumerated } from './own.js';
import { keyedSchemaCache, schemaCache, type SchemaCacheOptions } from './schema-cache.js';

function counted(
  capacity: number,
  options: SchemaCacheOptions = {},
): {
  cache: ReturnType<typeof schemaCache<object>>;
  builds: () => number;
} {
  let builds = 0;
  const cache = schemaCache(
    (schema: JsonSchema) => {
      builds++;
      return { built: schema };
    },
    capacity,
    options,
  );
  return { cache, builds: () => builds };
}

describe('schemaCache', () => {
  it('builds once per schema text, however many objects carry it (a suite repeats its tool schemas case by case)', () => {
    const { cache, builds } = counted(10);
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const first = cache.get(structuredClone(schema));
    for (let index = 0; index < 5; index++) expect(cache.get(structuredClone(schema))).toBe(first);
    expect(builds()).toBe(1);
    expect(cache.get({ type: 'object' })).not.toBe(first);
    expect(builds()).toBe(2);
  });

  it('keeps at most its capacity of texts, forgetting the least recently used first', () => {
    const { cache, builds } = counted(2);
    const a = cache.get({ title: 'a' });
    cache.get({ title: 'b' });
    // Asking for a again makes b the least recently used.
    expect(cache.get({ title: 'a' })).toBe(a);
    cache.get({ title: 'c' });
    expect(builds()).toBe(3);
    expect(cache.get({ title: 'a' })).toBe(a);
    expect(builds()).toBe(3);
    cache.get({ title: 'b' });
    expect(builds()).toBe(4);
  });

  it('answers a schema object seen before from the object itself, even once its text is forgotten', () => {
    const { cache, builds } = counted(1);
    const schema = { title: 'kept' };
    const built = cache.get(schema);
    cache.get({ title: 'other' });
    expect(cache.get(schema)).toBe(built);
    expect(builds()).toBe(2);
  });
});

describe("schemaCache's remember: 'first'", () => {
  it('answers by object only the object each text was built from; a later object of the text is found by text', () => {
    const { cache, builds } = counted(1, { remember: 'first' });
    const first = { title: 'a' };
    const later = structuredClone(first);
    const built = cache.get(first);
    expect(cache.get(later)).toBe(built);
    // Once the text is forgotten, the later object is not remembered, the first one is.
    cache.get({ title: 'other' });
    expect(cache.get(first)).toBe(built);
    expect(builds()).toBe(2);
    expect(cache.get(later)).not.toBe(built);
    expect(builds()).toBe(3);
  });

  it('hands back what was built from a schema of the same text, whichever object asks (property)', () => {
    const shared = schemaCache((schema: JsonSchema) => schema, 4, { remember: 'first' });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 30 }), (titles) => {
        for (const title of titles) {
          const schema = { title: String(title) };
          const found = shared.get(structuredClone(schema));
          expect(found).toEqual(schema);
          expect(shared.get(found)).toBe(found);
        }
      }),
    );
  });
});

function countedKeyed(capacity: number): {
  cache: ReturnType<typeof keyedSchemaCache<object>>;
  builds: () => number;
} {
  let builds = 0;
  const cache = keyedSchemaCache((schema: JsonSchema, key: string) => {
    builds++;
    return { key, schema };
  }, capacity);
  return { cache, builds: () => builds };
}

describe('keyedSchemaCache', () => {
  it('builds once per schema text and key, however many objects carry the text', () => {
    const { cache, builds } = countedKeyed(10);
    const schema = { type: 'string' };
    const a = cache.get(schema, 'a');
    expect(cache.get(structuredClone(schema), 'a')).toBe(a);
    expect(cache.get(schema, 'a')).toBe(a);
    const b = cache.get(structuredClone(schema), 'b');
    expect(b).toEqual({ key: 'b', schema });
    expect(cache.get(schema, 'b')).toBe(b);
    expect(builds()).toBe(2);
  });

  it('keeps at most its capacity of texts and keys, and answers an object seen before from the object', () => {
    const { cache, builds } = countedKeyed(2);
    const kept = { title: 'kept' };
    const built = cache.get(kept, 'a');
    cache.get({ title: 'x' }, 'a');
    cache.get({ title: 'x' }, 'b');
    expect(builds()).toBe(3);
    // Forgotten by text, answered by the object it was asked with.
    expect(cache.get(kept, 'a')).toBe(built);
    expect(cache.get({ title: 'kept' }, 'a')).not.toBe(built);
    expect(builds()).toBe(4);
  });

  it('never mixes keys and texts up, whatever newlines they hold (property)', () => {
    const cache = keyedSchemaCache((schema: JsonSchema, key: string) => ({ key, schema }), 1_000);
    fc.assert(
      fc.property(fc.string(), fc.string(), (key, title) => {
        const schema = { title };
        expect(cache.get(structuredClone(schema), key)).toEqual({ key, schema });
      }),
    );
  });
});

describe('trimmedPrintableAscii', () => {
  it('is text.trim() for printable ASCII and undefined for anything else', () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    });
    fc.assert(
      fc.property(fc.oneof(printable, fc.string({ unit: 'binary' })), (text) => {
        const ascii = /^[\x20-\x7e]*$/.test(text);
        expect(trimmedPrintableAscii(text)).toBe(ascii ? text.trim() : undefined);
      }),
    );
    expect(trimmedPrintableAscii('  CA ')).toBe('CA');
    expect(trimmedPrintableAscii('')).toBe('');
    expect(trimmedPrintableAscii('\tCA')).toBeUndefined();
  });
});

describe('ownEnumerated', () => {
  it('is Object.hasOwn, own keys only, whatever the prototype', () => {
    const inherited = Object.create({ city: 'Paris' }) as object;
    expect(ownEnumerated(inherited, 'city')).toBe(false);
    const bare = Object.create(null) as Record<string, unknown>;
    bare['city'] = 'Oslo';
    expect(ownEnumerated(bare, 'city')).toBe(true);
    // An argument named like the method it is read with.
    expect(ownEnumerated({ hasOwnProperty: 1 }, 'hasOwnProperty')).toBe(true);
    expect(ownEnumerated({}, 'constructor')).toBe(false);
  });
});

describe('issue 30: values with no JSON text are refused, never cached under the text "undefined"', () => {
  it("refuses what a lookup by an inherited name finds (a function) rather than give it another one's build", () => {
    const cache = schemaCache((schema) => schema, 10);
    const keyed = keyedSchemaCache((schema) => schema, 10);
    for (const name of ['constructor', 'toString']) {
      const found = ({} as Record<string, unknown>)[name] as JsonSchema;
      expect(() => cache.get(found)).toThrow(/not a JSON Schema/);
      expect(() => keyed.get(found, 'a')).toThrow(/not a JSON Schema/);
    }
  });
});
