import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../trace/trace.js';
import { parsePath, PartialArguments } from './partial-arguments.js';

/** Every leaf of a value as a partialArgs entry, strings cut into pieces (the last piece repeats the path empty, as Gemini ends a string). */
function leaves(value: JsonValue, path = '$'): JsonValue[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => leaves(item, `${path}[${index}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) =>
      leaves(
        item,
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
          ? `${path}.${key}`
          : `${path}['${key.replace(/['\\]/g, '\\$&')}']`,
      ),
    );
  if (typeof value === 'string')
    return [
      ...Array.from(value).map((piece) => ({
        jsonPath: path,
        stringValue: piece,
        willContinue: true,
      })),
      { jsonPath: path, stringValue: '' },
    ];
  if (typeof value === 'number') return [{ jsonPath: path, numberValue: value }];
  if (typeof value === 'boolean') return [{ jsonPath: path, boolValue: value }];
  return [{ jsonPath: path, nullValue: null }];
}

const nonEmpty = (value: JsonValue): boolean =>
  Array.isArray(value)
    ? value.length > 0 && value.every(nonEmpty)
    : value !== null && typeof value === 'object'
      ? Object.keys(value).length > 0 && Object.values(value).every(nonEmpty)
      : true;

describe('PartialArguments', () => {
  it('builds nested objects and arrays from paths, continuing strings', () => {
    const built = new PartialArguments();
    built.add([{ jsonPath: '$.recipe.steps[0]', stringValue: 'Preheat ', willContinue: true }]);
    built.add([{ jsonPath: '$.recipe.steps[0]', stringValue: 'the oven' }]);
    built.add([
      { jsonPath: '$.recipe.steps[1]', stringValue: 'Bake' },
      { jsonPath: "$['serves n']", numberValue: 4 },
    ]);
    built.add([
      { jsonPath: '$.recipe.vegan', boolValue: false },
      { jsonPath: '$.note', nullValue: null },
    ]);
    expect(built.fits).toBe(true);
    expect(built.value()).toEqual({
      recipe: { steps: ['Preheat the oven', 'Bake'], vegan: false },
      'serves n': 4,
      note: null,
    });
  });

  it('refuses a path that skips array positions, so a path cannot make it hold more than it was sent', () => {
    const built = new PartialArguments();
    built.add([{ jsonPath: '$.items[0]', stringValue: 'a' }]);
    built.add([{ jsonPath: '$.items[99999999999]', stringValue: 'b' }]);
    built.add([{ jsonPath: '$.items.name', stringValue: 'c' }]);
    expect(built.fits).toBe(false);
    expect(built.refusal).toContain('$.items[99999999999]');
    expect(built.value()).toEqual({ items: ['a'] });
  });

  it('keeps a key named __proto__ as data', () => {
    const built = new PartialArguments();
    built.add([{ jsonPath: '$.__proto__.polluted', boolValue: true }]);
    expect(JSON.stringify(built.value())).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('parses dotted, indexed and quoted paths, and nothing else', () => {
    expect(parsePath('$.a[2][\'b c\']["d"].e')).toEqual(['a', 2, 'b c', 'd', 'e']);
    expect(parsePath('a.b')).toBeUndefined();
    expect(parsePath('$.a[')).toBeUndefined();
  });

  it('rebuilds any JSON object sent leaf by leaf (property)', () => {
    fc.assert(
      fc.property(
        fc
          .dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }))
          .map((value) => JSON.parse(JSON.stringify(value)) as JsonValue)
          .filter(nonEmpty),
        (value) => {
          const built = new PartialArguments();
          for (const entry of leaves(value)) built.add([entry]);
          expect(built.fits).toBe(true);
          expect(built.value()).toEqual(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
