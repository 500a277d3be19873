import Database from 'better-sqlite3';

/**
 * The number a `SELECT count(*) …` query gives on a database opened read-only for it (a cassette
 * or a shadow database, beside the writer thanks to WAL), e.g. how many rounds were stored.
 */
export function countRows(path: string, sql = 'SELECT count(*) FROM interactions'): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(sql).pluck().get() as number | undefined) ?? 0;
  } finally {
    db.close();
  }
}
