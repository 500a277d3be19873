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

  it('looks beside the cassettes given too, and the closest name anywhere wins', () => {
    const suites = join(recordings, '..', 'suites', 'recordings');
    mkdirSync(suites, { recursive: true });
    writeFileSync(join(suites, 'shop.sqlite'), '');
    writeFileSync(join(recordings, 'mcp.sqlite'), '');
    const own = join(suites, 'suite-cassette.sqlite');
    expect(nearestCassette(join(recordings, 'shp.sqlite'), [own])).toBe(
      join(suites, 'shop.sqlite'),
    );
    expect(nearestCassette(join(recordings, 'shp.sqlite'))).toBe(join(recordings, 'mcp.sqlite'));
    writeFileSync(join(suites, 'shp.sqlite'), '');
    expect(nearestCassette(join(recordings, 'shp.sqlite'), [own])).toBe(join(suites, 'shp.sqlite'));
  });
});
