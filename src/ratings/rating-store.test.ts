import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rating } from './rating.js';
import { ratingsFromText, ratingsToYaml } from './ratings-document.js';
import { RatingStore } from './rating-store.js';

const folder = mkdtempSync(join(tmpdir(), 'calltape-ratings-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const rating = fc.record(
  {
    run: fc.stringMatching(/^[a-z0-9/._-]{1,12}#[A-Za-z0-9-]{1,8}$/),
    rating: fc.constantFrom('pass' as const, 'fail' as const),
    note: fc.string(),
    rater: fc.string({ minLength: 1 }),
    at: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString()),
  },
  { requiredKeys: ['run', 'rating', 'at'] },
);
const ratingList = fc.uniqueArray(rating, { selector: (item) => item.run, maxLength: 8 });

describe('RatingStore', () => {
  it('keeps ratings per set, replaces a re-rating, and survives reopening', () => {
    const path = join(folder, 'store.sqlite');
    const store = new RatingStore(path);
    store.put('golden', { run: 'a#1', rating: 'pass', at: '2026-12-01T00:00:00.000Z' });
    store.put('golden', {
      run: 'a#1',
      rating: 'fail',
      note: 'missed the memo',
      at: '2026-12-01T00:01:00.000Z',
    });
    store.put('other', { run: 'a#2', rating: 'pass', rater: 'bo', at: '2026-12-01T00:02:00.000Z' });
    store.close();
    const again = new RatingStore(path, { readonly: true });
    expect(again.list('golden')).toEqual([
      { run: 'a#1', rating: 'fail', note: 'missed the memo', at: '2026-12-01T00:01:00.000Z' },
    ]);
    expect(again.sets()).toEqual(['golden', 'other']);
    again.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    db.close();
  });

  it('refuses a file written by a newer schema instead of guessing', () => {
    const path = join(folder, 'newer.sqlite');
    const db = new Database(path);
    db.pragma('user_version = 9');
    db.close();
    expect(() => new RatingStore(path)).toThrow(/newer calltape \(schema 9/);
  });

  it('an import is all or nothing: a bad rating leaves the earlier ones untouched', () => {
    const store = new RatingStore(join(folder, 'atomic.sqlite'));
    store.put('golden', { run: 'a#1', rating: 'pass', at: 'x' });
    expect(() =>
      store.putAll('golden', [
        { run: 'a#1', rating: 'fail', at: 'y' },
        { run: 'a#2', rating: 'maybe' as 'pass', at: 'y' },
      ]),
    ).toThrow();
    expect(store.list('golden')).toEqual([{ run: 'a#1', rating: 'pass', at: 'x' }]);
    store.close();
  });
});

describe('ratings YAML', () => {
  it('round-trips every set losslessly, through the store too', () => {
    let round = 0;
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), ratingList, { maxKeys: 3 }),
        (sets) => {
          const expected = new Map(
            Object.entries(sets).map(([name, list]) => [
              name,
              [...list].sort((left, right) => (left.run < right.run ? -1 : 1)),
            ]),
          );
          const read = ratingsFromText(ratingsToYaml(new Map(Object.entries(sets))), 'golden.yaml');
          expect(new Map([...read].map(([name, list]) => [name, [...list]]))).toEqual(expected);
          const store = new RatingStore(join(folder, `round-${(round += 1)}.sqlite`));
          for (const [name, list] of read) store.putAll(name, list);
          const back = new Map(
            store.sets().map((name): [string, Rating[]] => [name, store.list(name)]),
          );
          store.close();
          expect(ratingsToYaml(back)).toBe(
            ratingsToYaml(new Map([...expected].filter(([, list]) => list.length > 0))),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('names the file and the entry of a bad rating, and a run rated twice', () => {
    expect(() =>
      ratingsFromText(
        'version: 1\nsets:\n  golden:\n    - { run: a#1, rating: maybe, at: 2026-12-01T00:00:00Z }\n',
        'g.yaml',
      ),
    ).toThrow(/g\.yaml: sets\.golden\[0\]\.rating: must be one of \["pass","fail"\]/);
    expect(() =>
      ratingsFromText(
        'version: 1\nsets:\n  golden:\n    - { run: a#1, rating: pass, at: 2026-12-01T00:00:00Z, score: 3 }\n',
        'g.yaml',
      ),
    ).toThrow(/score: unknown field/);
    expect(() =>
      ratingsFromText(
        'version: 1\nsets:\n  golden:\n    - { run: a#1, rating: pass, at: 2026-12-01T00:00:00Z }\n    - { run: a#1, rating: fail, at: 2026-12-01T00:00:00Z }\n',
        'g.yaml',
      ),
    ).toThrow(/g\.yaml: sets\.golden: the run "a#1" is rated twice/);
  });
});

describe('kept judge comparisons', () => {
  it('keeps the last comparison of each judges file and set, newest first; a file from before has none', () => {
    const before = join(folder, 'before-comparisons.sqlite');
    const old = new Database(before);
    old.exec(
      'CREATE TABLE ratings (set_name TEXT, run TEXT, rating TEXT, note TEXT, rater TEXT, at TEXT, PRIMARY KEY (set_name, run)); PRAGMA user_version = 1',
    );
    old.close();
    const reader = new RatingStore(before, { readonly: true });
    expect(reader.listComparisons()).toEqual([]);
    reader.close();
    const store = new RatingStore(join(folder, 'comparisons.sqlite'));
    const report = (set: string, judges: string, best: string) => ({
      set,
      judges_file: judges,
      best,
    });
    expect(store.listComparisons()).toEqual([]);
    store.putComparison({
      at: '2026-12-01T00:00:00.000Z',
      report: report('golden', 'a.yaml', 'x'),
    });
    store.putComparison({
      at: '2026-12-02T00:00:00.000Z',
      report: report('golden', 'b.yaml', 'y'),
    });
    store.putComparison({
      at: '2026-12-03T00:00:00.000Z',
      report: report('golden', 'a.yaml', 'z'),
    });
    expect(store.listComparisons()).toEqual([
      { at: '2026-12-03T00:00:00.000Z', report: report('golden', 'a.yaml', 'z') },
      { at: '2026-12-02T00:00:00.000Z', report: report('golden', 'b.yaml', 'y') },
    ]);
    store.close();
  });
});
