import type Database from 'better-sqlite3';
import type { MatchRules } from '../canonical-request.js';
import { keyProfile, storedRequestKeyer } from '../match-key.js';
import { migrations } from './migrations.js';
import { copyIntoMemory, openCassetteForReading } from './open-cassette.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * A cassette as replay reads it, never written: the file itself when its schema and keys are
 * current, else a migrated in-memory copy re-keyed for `rules` (so changing match rules still
 * needs no re-recording, and the committed file stays byte-identical). `rekeyed` counts the
 * recordings keyed again in memory.
 */
export function openForReplay(
  path: string,
  rules: MatchRules,
): { readonly db: Database.Database; readonly rekeyed: number } {
  let db = openCassetteForReading(path);
  const profile = keyProfile(rules);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (
    version === migrations.length &&
    (db
      .prepare('SELECT count(*) FROM interactions WHERE key_profile IS NOT ?')
      .pluck()
      .get(profile) as number) === 0
  )
    return { db, rekeyed: 0 };
  try {
    // Refuses a cassette from a newer calltape before anything is copied.
    new SqliteStore(path, { readonly: true, database: db });
    db = copyIntoMemory(db);
    const rekeyed = new SqliteStore(path, { database: db }).ensureKeyProfile(
      profile,
      storedRequestKeyer(rules),
    );
    return { db, rekeyed };
  } catch (error) {
    db.close();
    throw error;
  }
}
