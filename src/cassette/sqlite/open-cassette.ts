import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import { migrations } from './migrations.js';
import { preparePrivateDatabase } from '../../private-files.js';

/**
 * Page cache of a writing connection, in KiB as SQLite's negative `cache_size` takes it: SQLite's
 * own default of 2 MB. better-sqlite3 builds SQLite with 16 MB, which a recording proxy's store
 * worker fills within minutes of traffic (the random request-key index touches pages all over
 * the file) and keeps resident in its thread's malloc arena; appends hit a few pages per row and
 * a miss is read back from the OS's page cache, so the larger cache bought no measurable speed.
 */
const writerCacheKib = -2000;

/** Gives a writing connection SQLite's own 2 MB page cache (`writerCacheKib`), not better-sqlite3's 16 MB. */
export function boundPageCache(db: Database.Database): void {
  db.pragma(`cache_size = ${writerCacheKib}`);
}

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
    preparePrivateDatabase(path);
    db = new Database(path);
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    boundPageCache(db);
    migrateCassette(db, path);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof CalltapeError) throw error;
    throw new CalltapeError(
      'STORE_IO',
      `${path}: cannot open the cassette: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
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
    throw new CalltapeError(
      'STORE_IO',
      `${path}: schema version ${version} is newer than this calltape understands (${migrations.length})`,
      'Upgrade calltape to read this cassette.',
    );
  }
  return version;
}

/** Offset of the SQLite header's write and read format versions: 2 means WAL mode. */
const formatVersionOffset = 18;

/**
 * Opens a cassette for reading without writing a byte of it or creating anything beside it, so a
 * committed cassette stays as git checked it out. A read-only SQLite connection to a file in WAL
 * mode creates `-wal` and `-shm` files (it needs the shared index), so such a file at rest is
 * read into memory instead; cassettes calltape closes are left in rollback mode and open
 * directly. A file with a live `-wal` (a writer has it open, or crashed) opens directly too: its
 * companions exist already and hold commits the main file does not.
 */
export function openCassetteForReading(path: string): Database.Database {
  if (!existsSync(path)) throw new CalltapeError('CONFIG_INVALID', `${path}: no such cassette`);
  try {
    if (!inWalMode(path) || hasLiveWal(path)) {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      return db;
    }
    const bytes = readFileSync(path);
    // The same pages in rollback mode: SQLite cannot open a WAL-mode image in memory.
    bytes[formatVersionOffset] = 1;
    bytes[formatVersionOffset + 1] = 1;
    return new Database(bytes);
  } catch (error) {
    throw new CalltapeError(
      'STORE_IO',
      `${path}: cannot open the cassette: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
  }
}

/** A writable in-memory copy of an open database (for migrating or re-keying what may not be written back). */
export function copyIntoMemory(db: Database.Database): Database.Database {
  if (db.memory) return db;
  const copy = new Database(db.serialize());
  db.close();
  return copy;
}

function inWalMode(path: string): boolean {
  const header = Buffer.alloc(formatVersionOffset + 1);
  const file = openSync(path, 'r');
  try {
    readSync(file, header, 0, header.length, 0);
  } finally {
    closeSync(file);
  }
  return header[formatVersionOffset] === 2;
}

function hasLiveWal(path: string): boolean {
  return existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
}
