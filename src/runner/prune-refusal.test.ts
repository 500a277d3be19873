import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LastCassetteRun } from './cassette-use-store.js';
import { pruneRefusal } from './prune-refusal.js';

const run = (fields: Partial<LastCassetteRun>): LastCassetteRun => ({
  mode: 'replay',
  startedAt: 0,
  servedIds: new Set(['a']),
  missed: 0,
  errors: 0,
  ...fields,
});

describe('prune refuses to decide from a run that errored or served nothing (regression: an auto run whose agents could not start deleted all 41 recordings)', () => {
  it('refuses a run with errors, saying how many', () => {
    expect(pruneRefusal(run({ mode: 'auto', errors: 41 }), 0)).toMatch(/ended with 41 errors/);
    expect(pruneRefusal(run({ errors: 1 }), 0)).toMatch(/ended with an error/);
  });

  it('refuses a replay or auto run that served no recording', () => {
    expect(pruneRefusal(run({ mode: 'auto', servedIds: new Set(), errors: undefined }), 0)).toMatch(
      /served no recording/,
    );
    expect(pruneRefusal(run({ servedIds: new Set(), missed: 3 }), 0)).toMatch(
      /3 request\(s\) missed/,
    );
  });

  it('decides from an auto run that served nothing because it recorded everything anew (a prompt change)', () => {
    expect(pruneRefusal(run({ mode: 'auto', servedIds: new Set() }), 21)).toBeUndefined();
  });

  it('decides from a clean run, a record run (which serves nothing by design) and a run noted before errors were', () => {
    expect(pruneRefusal(run({}), 0)).toBeUndefined();
    expect(pruneRefusal(run({ mode: 'record', servedIds: new Set() }), 0)).toBeUndefined();
    expect(pruneRefusal(run({ errors: undefined }), 0)).toBeUndefined();
  });

  it('never decides from a run with errors, whatever else it did', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('replay', 'auto', 'record'),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.uuid(), { maxLength: 5 }),
        (mode, errors, served) => {
          expect(pruneRefusal(run({ mode, errors, servedIds: new Set(served) }), 0)).toBeDefined();
        },
      ),
    );
  });
});
