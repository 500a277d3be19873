import Database from 'better-sqlite3';
import { boundPageCache } from '../cassette/sqlite/open-cassette.js';
import { CalltapeError } from '../errors.js';
import { shadowSchema } from './shadow-schema.js';
import { preparePrivateDatabase } from '../private-files.js';
import { isPostgresUrl, printableDatabase, redactDatabaseUrl } from '../database-url.js';
import { migratePostgres } from './migrate-postgres.js';
import { PostgresDatabase } from './postgres-database.js';
import { shadowMigrations } from './shadow-migrations.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite-database.js';

/**
 * Opens the shadow-scoring database a location names: a `postgres://` URL (one database for a
 * fleet of proxies; migrated on open) or a SQLite file. To write, a file is created, put in WAL
 * mode and given its tables (STORE_IO on failure); to read (`where` says how to point at it), a
 * file must exist and is left as it is (CONFIG_INVALID). Credentials never reach a message.
 */
export function openShadowSql(
  location: string,
  access: { readonly readonly: false } | { readonly readonly: true; readonly where: string },
): SqlDatabase {
  let postgres: PostgresDatabase | undefined;
  try {
    if (isPostgresUrl(location)) {
      postgres = new PostgresDatabase(location);
      migratePostgres(postgres, 'shadow', shadowMigrations);
      return postgres;
    }
    if (access.readonly)
      return new SqliteDatabase(
        new Database(location, { readonly: true, fileMustExist: true }),
        location,
      );
    preparePrivateDatabase(location);
    const db = new Database(location);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // Its writer appends to indexes (session ids) that grow all over the file, as the cassette writer's do.
    boundPageCache(db);
    db.exec(shadowSchema);
    return new SqliteDatabase(db, location);
  } catch (error) {
    postgres?.close();
    const message = `${printableDatabase(location)}: cannot open the shadow-scoring database: ${redactDatabaseUrl((error as Error).message, location)}`;
    throw access.readonly
      ? new CalltapeError(
          'CONFIG_INVALID',
          message,
          `It is written by calltape proxy --policies; ${access.where}.`,
        )
      : new CalltapeError('STORE_IO', message);
  }
}
