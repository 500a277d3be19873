import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingCassetteHint, nearestCassette } from './missing-cassette-hint.js';

describe('a missing judges cassette suggests recordings/calltape-runs.sqlite, the runs database', () => {
  const recordings = join(mkdtempSync(join(tmpdir(), 'calltape-own-dbs-')), 'recordings');
  mkdirSync(recordings);
  for (const name of [
    'calltape-runs.sqlite',
    'calltape-shadow.sqlite',
    'calltape-ratings.sqlite',
    'checkout.sqlite',
  ])
    writeFileSync(join(recordings, name), '');

  it("never suggests calltape's own databases for a cassette", () => {
    for (const typo of ['calltape-judges', 'calltape-rune', 'calltape-shadows', 'calltape-rating'])
      expect(nearestCassette(join(recordings, `${typo}.sqlite`)), typo).toBeUndefined();
    expect(missingCassetteHint(join(recordings, 'calltape-judges.sqlite'), 'record it')).toBe(
      'To record it: record it.',
    );
  });

  it('still suggests the cassette a typo stands for', () => {
    expect(nearestCassette(join(recordings, 'chekout.sqlite'))).toBe(
      join(recordings, 'checkout.sqlite'),
    );
  });
});
