import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';

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
    throw new CalltapeError('STORE_IO', `${path}: cannot open the cassette: ${(error as Error).message}`, undefined, { cause: error });
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
