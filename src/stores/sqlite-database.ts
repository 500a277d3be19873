import type Database from 'better-sqlite3';
import type { SqlDatabase, SqlValue } from './sql-database.js';

/**
 * A better-sqlite3 connection as a `SqlDatabase`. Statements are prepared once per SQL text and
 * kept, so a store that asks for the same query again pays only a map lookup.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite';
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly db: Database.Database,
    readonly location: string,
  ) {}

  all<Row>(sql: string, parameters: readonly SqlValue[] = []): Row[] {
    return this.statement(sql).all(...parameters) as Row[];
  }

  // The caller names the row's shape, as better-sqlite3's own `get` lets it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  get<Row>(sql: string, parameters: readonly SqlValue[] = []): Row | undefined {
    return this.statement(sql).get(...parameters) as Row | undefined;
  }

  run(sql: string, parameters: readonly SqlValue[] = []): number {
    return this.statement(sql).run(...parameters).changes;
  }

  insert(sql: string, parameters: readonly SqlValue[]): number {
    return Number(this.statement(sql).run(...parameters).lastInsertRowid);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  hasColumn(table: string, column: string): boolean {
    return (this.db.pragma(`table_info(${table})`) as { name: string }[]).some(
      (entry) => entry.name === column,
    );
  }

  close(): void {
    this.db.close();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
