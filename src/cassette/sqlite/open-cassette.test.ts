import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCassette } from './open-cassette.js';

const folder = mkdtempSync(join(tmpdir(), 'calltape-open-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('openCassette', () => {
  it("gives a writing connection SQLite's 2 MB page cache, not better-sqlite3's 16 MB build default", () => {
    const db = openCassette(join(folder, 'c.sqlite'), 'write');
    try {
      expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });
});
