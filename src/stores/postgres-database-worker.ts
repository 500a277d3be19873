/**
 * The thread that owns a PostgreSQL pool for a `PostgresDatabase`: it takes one request at a
 * time from its port, runs it (as a named prepared statement, so PostgreSQL plans each query
 * once per connection), posts the answer and wakes the waiting thread.
 */
import { workerData } from 'node:worker_threads';
import fnv1a from '@sindresorhus/fnv1a';
import pg from 'pg';
import { redactDatabaseUrl } from '../database-url.js';
import type { PostgresAnswer, PostgresRequest, PostgresWorkerData } from './postgres-protocol.js';

const data = workerData as PostgresWorkerData;
// Counts (bigint) and averages (numeric) come back as numbers, as SQLite gives them.
const types = new pg.TypeOverrides();
types.setTypeParser(pg.types.builtins.INT8, 'text', Number);
types.setTypeParser(pg.types.builtins.NUMERIC, 'text', Number);
const pool = new pg.Pool({
  connectionString: data.url,
  max: data.maxConnections,
  connectionTimeoutMillis: data.connectTimeoutMs,
  types,
});
// A connection the server drops (idle, or held between a transaction's statements) is replaced
// on the next checkout, and the statement that needed it fails: never a crash of this thread.
pool.on('error', () => undefined);
pool.on('connect', (client) => client.on('error', () => undefined));
/** The connection a transaction runs on, between begin and commit or rollback. */
let held: pg.PoolClient | undefined;

data.port.on('message', (request: PostgresRequest) => {
  void answer(request).then((reply) => {
    data.port.postMessage(reply);
    Atomics.store(data.signal, 0, 1);
    Atomics.notify(data.signal, 0);
    if (request.type === 'close') data.port.close();
  });
});

async function answer(request: PostgresRequest): Promise<PostgresAnswer> {
  try {
    switch (request.type) {
      case 'query': {
        const text = numbered(request.sql);
        const result = await (held ?? pool).query({
          name: `calltape_${fnv1a(text, { size: 64 }).toString(36)}`,
          text,
          values: [...request.parameters],
        });
        return { ok: true, rows: result.rows, changed: result.rowCount ?? 0 };
      }
      case 'exec':
        await (held ?? pool).query(request.sql);
        return { ok: true, rows: [], changed: 0 };
      case 'begin':
        held = await pool.connect();
        await held.query('BEGIN');
        return { ok: true, rows: [], changed: 0 };
      case 'commit':
      case 'rollback': {
        const client = held;
        held = undefined;
        try {
          await client?.query(request.type === 'commit' ? 'COMMIT' : 'ROLLBACK');
          client?.release();
        } catch (error) {
          client?.release(error as Error);
          throw error;
        }
        return { ok: true, rows: [], changed: 0 };
      }
      case 'close':
        held?.release();
        await pool.end();
        return { ok: true, rows: [], changed: 0 };
    }
  } catch (error) {
    if (request.type === 'begin') {
      held?.release(error as Error);
      held = undefined;
    }
    return {
      ok: false,
      message: redactDatabaseUrl((error as Error).message, data.url),
      code: (error as { code?: string }).code,
    };
  }
}

/** `?` parameters as PostgreSQL's `$1, $2, …` (the stores' SQL has no `?` inside quotes). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
