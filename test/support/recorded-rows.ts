import Database from 'better-sqlite3';

/** A cassette's recorded round trips, in order, as the columns a replay must never change. */
export function recordedRows(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare('SELECT id, request_key, key_ordinal, response_body FROM interactions ORDER BY seq')
      .all();
  } finally {
    db.close();
  }
}
