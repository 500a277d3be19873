import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import { CalltapeError } from '../errors.js';
import { workerScript } from '../worker-script.js';
import { printableDatabase } from '../database-url.js';
import type { PostgresAnswer, PostgresRequest, PostgresWorkerData } from './postgres-protocol.js';
import type { SqlDatabase, SqlValue } from './sql-database.js';

/** Options of a PostgreSQL connection. */
export interface PostgresOptions {
  /** Connections the pool keeps at most (default 4). */
  readonly maxConnections?: number;
  /** How long connecting may take before the query fails, ms (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** How long any one request may take before it fails, ms (default 60 s). */
  readonly requestTimeoutMs?: number;
}

/**
 * A PostgreSQL database as a synchronous `SqlDatabase`. node-postgres is asynchronous; the pool
 * lives in a worker thread and this thread waits on a shared flag for each answer
 * (`Atomics.wait`), so calltape's stores read and write PostgreSQL through the same synchronous
 * interface as SQLite. Used off the response path only: by CLI commands, the view and the
 * shadow-scoring thread. Errors are STORE_IO with the URL's password redacted.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres';
  readonly location: string;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly requestTimeoutMs: number;
  private closed = false;

  constructor(url: string, options: PostgresOptions = {}) {
    this.location = printableDatabase(url);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    const { port1, port2 } = new MessageChannel();
    const data: PostgresWorkerData = {
      url,
      port: port2,
      signal: this.signal,
      maxConnections: options.maxConnections ?? 4,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    };
    this.worker = new Worker(workerScript('stores/postgres-database-worker'), {
      workerData: data,
      transferList: [port2],
    });
    // The process may exit with the pool open (a CLI command's last query); the server sees the connection end.
    this.worker.unref();
    this.port = port1;
  }

  all<Row>(sql: string, parameters: readonly SqlValue[] = []): Row[] {
    return this.request({ type: 'query', sql, parameters }).rows as Row[];
  }

  // The caller names the row's shape, as better-sqlite3's own `get` lets it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  get<Row>(sql: string, parameters: readonly SqlValue[] = []): Row | undefined {
    return this.all<Row>(sql, parameters)[0];
  }

  run(sql: string, parameters: readonly SqlValue[] = []): number {
    return this.request({ type: 'query', sql, parameters }).changed;
  }

  insert(sql: string, parameters: readonly SqlValue[]): number {
    return (this.get<{ id: number }>(`${sql} RETURNING id`, parameters) as { id: number }).id;
  }

  exec(sql: string): void {
    this.request({ type: 'exec', sql });
  }

  transaction<T>(work: () => T): T {
    this.request({ type: 'begin' });
    let result: T;
    try {
      result = work();
    } catch (error) {
      try {
        this.request({ type: 'rollback' });
      } catch {
        // The connection is gone, and the transaction with it.
      }
      throw error;
    }
    this.request({ type: 'commit' });
    return result;
  }

  hasColumn(table: string, column: string): boolean {
    return (
      this.get(
        'SELECT 1 AS present FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?',
        [table, column],
      ) !== undefined
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.request({ type: 'close' });
    } finally {
      void this.worker.terminate();
    }
  }

  private request(request: PostgresRequest): Extract<PostgresAnswer, { ok: true }> {
    if (this.closed && request.type !== 'close')
      throw new CalltapeError('STORE_IO', `${this.location}: the database is closed`);
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(request);
    if (Atomics.wait(this.signal, 0, 0, this.requestTimeoutMs) === 'timed-out') {
      // Its late answer would be taken for the next request's: this connection is done.
      this.closed = true;
      void this.worker.terminate();
      throw new CalltapeError(
        'STORE_IO',
        `${this.location}: PostgreSQL did not answer within ${this.requestTimeoutMs} ms`,
      );
    }
    const answer = receiveMessageOnPort(this.port)?.message as PostgresAnswer | undefined;
    if (!answer)
      throw new CalltapeError('STORE_IO', `${this.location}: the PostgreSQL thread stopped`);
    if (!answer.ok)
      throw new CalltapeError(
        'STORE_IO',
        `${this.location}: ${answer.message}${answer.code ? ` (${answer.code})` : ''}`,
      );
    return answer;
  }
}
