/** A value bound to a statement parameter. */
export type SqlValue = string | number | bigint | null;

/**
 * One SQL database as calltape's stores use it, synchronously, with `?` parameters: a SQLite
 * file (better-sqlite3) or a PostgreSQL database (node-postgres behind a worker thread). The
 * stores write their queries once, in SQL both understand, and ask `dialect` for the few things
 * that differ.
 */
export interface SqlDatabase {
  /** Which engine: decides the schema text and the few dialect differences. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Where it is, safe to print (a URL's password redacted). */
  readonly location: string;
  /** The rows a query returns. */
  all<Row>(sql: string, parameters?: readonly SqlValue[]): Row[];
  /** The first row a query returns; undefined for none. */
  // The caller names the row's shape, as better-sqlite3's own `get` lets it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  get<Row>(sql: string, parameters?: readonly SqlValue[]): Row | undefined;
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, parameters?: readonly SqlValue[]): number;
  /** Runs an INSERT (without RETURNING) into a table whose key is `id`; returns the new row's id. */
  insert(sql: string, parameters: readonly SqlValue[]): number;
  /** Runs statements without parameters (a schema), several at once. */
  exec(sql: string): void;
  /** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: () => T): T;
  /** Whether a table has a column (a read-only opening of an older database may lack it). */
  hasColumn(table: string, column: string): boolean;
  close(): void;
}

/** The column rows of a table are ordered by as inserted: SQLite's rowid, PostgreSQL's `seq` column. */
export function insertOrder(database: SqlDatabase): string {
  return database.dialect === 'sqlite' ? 'rowid' : 'seq';
}
