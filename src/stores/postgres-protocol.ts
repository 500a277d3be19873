import type { MessagePort } from 'node:worker_threads';
import type { SqlValue } from './sql-database.js';

/** What the PostgreSQL worker starts with. */
export interface PostgresWorkerData {
  readonly url: string;
  /** The port requests come on and answers go back by. */
  readonly port: MessagePort;
  /** Set to 1 (and notified) when an answer has been posted. */
  readonly signal: Int32Array;
  /** Connections the pool keeps at most. */
  readonly maxConnections: number;
  /** How long a connection attempt may take, ms. */
  readonly connectTimeoutMs: number;
}

/** A request to the PostgreSQL worker. */
export type PostgresRequest =
  | { readonly type: 'query'; readonly sql: string; readonly parameters: readonly SqlValue[] }
  | { readonly type: 'exec'; readonly sql: string }
  | { readonly type: 'begin' | 'commit' | 'rollback' | 'close' };

/** Its answer: the rows and the count of changed rows, or the error (its message already redacted). */
export type PostgresAnswer =
  | { readonly ok: true; readonly rows: unknown[]; readonly changed: number }
  | { readonly ok: false; readonly message: string; readonly code: string | undefined };
