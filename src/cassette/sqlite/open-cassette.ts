import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import { migrations } from './migrations.js';
import { openCassetteForReading } from './read-only-cassette.js';

/**
 * The one place a cassette file is opened. Every connection waits up to 5 s on a lock (a proxy's
 * store worker may be writing). `write` creates the file and its folder when missing, turns on
 * WAL (readers and the writer work at once), `synchronous = NORMAL` (in WAL mode that survives a
 * process crash; only power loss can undo the last commits) and foreign keys, and migrates the
 * schema; `read` opens an existing file without writing to it (`openCassetteForReading`) and checks its schema is one this calltape
 * understands. Failures are `STORE_IO` errors naming the file.
 */
export function openCassette(path: string, access: 'read' | 'write'): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (access === 'read') {
      // Not a byte written, nor -wal/-shm created beside it: a committed cassette stays as checked out.
      db = openCassetteForReading(path);
      checkSchemaVersion(db, path);
      return db;
    }
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrateCassette(db, path);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof CalltapeError) throw error;
    throw new CalltapeError('STORE_IO', `${path}: cannot open the cassette: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** Brings a writable connection's schema up to date (in one immediate transaction). */
export function migrateCassette(db: Database.Database, path: string): void {
  if (checkSchemaVersion(db, path) === migrations.length) return;
  db.transaction(() => {
    // Read again under the write lock: another process may have migrated while this one waited.
    const version = checkSchemaVersion(db, path);
    for (const sql of migrations.slice(version)) db.exec(sql);
    db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
}

/** The cassette's schema version; refuses one newer than this calltape. */
export function checkSchemaVersion(db: Database.Database, path: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    throw new CalltapeError('STORE_IO', `${path}: schema version ${version} is newer than this calltape understands (${migrations.length})`, 'Upgrade calltape to read this cassette.');
  }
  return version;
}
