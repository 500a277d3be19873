import type Database from 'better-sqlite3';

/**
 * Closes a connection that wrote to a cassette, leaving the file at rest: checkpointed and in
 * rollback mode, so no `-wal` or `-shm` stays beside it (nothing to commit by mistake) and a
 * later read-only open (replay) creates none. When another connection still has the file open
 * the switch fails at once, and the last writer out does it.
 */
export function closeAtRest(db: Database.Database): void {
  if (db.open && !db.readonly && !db.memory) {
    try {
      db.pragma('busy_timeout = 0');
      db.pragma('journal_mode = DELETE');
    } catch {
      // Busy: another connection has it open.
    }
  }
  db.close();
}
