import Database from 'better-sqlite3';
import { CalltapeError } from '../errors.js';
import { openRunsDatabase } from './runs-database.js';
import { isPostgresUrl, printableDatabase, redactDatabaseUrl } from '../database-url.js';
import { migratePostgres } from './migrate-postgres.js';
import { PostgresDatabase } from './postgres-database.js';
import { runsMigrations } from './runs-migrations.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite-database.js';

/**
 * Opens the runs database a location names: a `postgres://` URL (shared by CI runners; its
 * tables are migrated on open) or a SQLite file (created and migrated to write; opened as it is
 * to read, so a view never migrates or locks a file a test run is writing). Failures are
 * CONFIG_INVALID to read (with how to get one) and STORE_IO to write, credentials redacted.
 */
export function openRunsSql(
  location: string,
  options: { readonly readonly?: boolean } = {},
): SqlDatabase {
  let postgres: PostgresDatabase | undefined;
  try {
    if (isPostgresUrl(location)) {
      postgres = new PostgresDatabase(location);
      migratePostgres(postgres, 'runs', runsMigrations);
      return postgres;
    }
    const db = options.readonly
      ? new Database(location, { readonly: true, fileMustExist: true })
      : openRunsDatabase(location);
    if (options.readonly) db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    return new SqliteDatabase(db, location);
  } catch (error) {
    postgres?.close();
    throw new CalltapeError(
      options.readonly ? 'CONFIG_INVALID' : 'STORE_IO',
      `${printableDatabase(location)}: cannot open the runs database: ${redactDatabaseUrl((error as Error).message, location)}`,
      options.readonly
        ? 'Runs are stored by calltape test; run one first, or pass --runs-db.'
        : undefined,
    );
  }
}
