import type { SqlDatabase } from './sql-database.js';

/** One step of a store's PostgreSQL schema: applied once, in version order. */
export interface Migration {
  readonly version: number;
  /** Statements without parameters. */
  readonly sql: string;
}

/**
 * Brings a store's tables in a PostgreSQL database up to its newest migration, in one
 * transaction under a transaction-scoped advisory lock, so replicas and CI runners starting at
 * once apply each step exactly once; the version reached is kept per store in `calltape_schema`.
 */
export function migratePostgres(
  db: SqlDatabase,
  store: string,
  migrations: readonly Migration[],
): void {
  db.transaction(() => {
    // The lock key is fixed: every calltape store's migrations take turns (they are short).
    db.get("SELECT pg_advisory_xact_lock(hashtext('calltape_schema'))::text AS locked");
    db.exec(
      'CREATE TABLE IF NOT EXISTS calltape_schema (store TEXT PRIMARY KEY, version INTEGER NOT NULL)',
    );
    const current =
      db.get<{ version: number }>('SELECT version FROM calltape_schema WHERE store = ?', [store])
        ?.version ?? 0;
    const pending = migrations.filter((migration) => migration.version > current);
    for (const migration of pending) db.exec(migration.sql);
    const newest = pending.at(-1);
    if (newest)
      db.run(
        'INSERT INTO calltape_schema (store, version) VALUES (?, ?) ON CONFLICT (store) DO UPDATE SET version = excluded.version',
        [store, newest.version],
      );
  });
}
