import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../errors.js';
import { parseKeyPress } from './key-press.js';

describe('parseKeyPress', () => {
  it('reads a key press with its note, the set defaulting to golden', () => {
    expect(
      parseKeyPress({ runs: 'a.sqlite', run: 'a.sqlite#1', key: 'f', note: 'wrong memo' }),
    ).toEqual({ runs: 'a.sqlite', set: 'golden', run: 'a.sqlite#1', key: 'f', note: 'wrong memo' });
  });

  it('refuses the note key: a note travels with the pass or fail it belongs to', () => {
    expect(() => parseKeyPress({ runs: 'a.sqlite', key: 'n' })).toThrow(/"key" must be p/);
  });

  it('reads only own fields: an inherited key is no key', () => {
    const inherited = Object.create({ key: 'p', runs: 'a.sqlite' }) as Record<string, unknown>;
    expect(() => parseKeyPress(inherited)).toThrow(CalltapeError);
  });

  it('either reads a well-formed press or refuses with CONFIG_INVALID, whatever the body', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('runs', 'run', 'key', 'set', 'note', 'rater', '__proto__'),
          fc.jsonValue(),
        ),
        (record) => {
          try {
            const press = parseKeyPress(record);
            expect(['p', 'f', 's', 'b']).toContain(press.key);
            expect(press.runs.length).toBeGreaterThan(0);
          } catch (error) {
            expect(error).toBeInstanceOf(CalltapeError);
            expect((error as CalltapeError).code).toBe('CONFIG_INVALID');
          }
        },
      ),
    );
  });
});
