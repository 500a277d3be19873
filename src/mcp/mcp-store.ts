import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openCassette } from '../cassette/sqlite/open-cassette.js';
import type { JsonValue } from '../trace/trace.js';
import type { JsonRpcError } from './json-rpc.js';
import { exchangeFailed, type McpExchange, type McpTransport } from './mcp-exchange.js';

/** A recorded answer, as replay serves it. */
export interface McpRecording {
  readonly id: string;
  readonly result: JsonValue | undefined;
  readonly error: JsonRpcError | undefined;
  /** What the server sent before the answer (progress, requests to the client), in order. */
  readonly during: readonly JsonValue[];
}

/** A stored exchange as listings read it. */
export type StoredMcpExchange = Omit<McpExchange, 'key' | 'canonical'> & {
  readonly failed: boolean;
};

const columns =
  'id, session_id, session_given, server, method, subject, params, result, error, key_ordinal, started_at, total_ms, mock_set, is_error';
/** Kept since the cassette's sixth MCP-era migration; a cassette opened read-only may predate them. */
const traceColumns = 'request_id, transport, mcp_session_id, protocol_version';

/**
 * The MCP side of a cassette: table `mcp_exchanges` beside the LLM interactions in the same
 * SQLite file (WAL lets a relay write while a proxy writes the same cassette). Read-only
 * opening never migrates or writes, so a committed cassette stays byte-identical after replay;
 * a cassette from before MCP support simply has no MCP recordings.
 */
export class McpStore {
  private readonly db: Database.Database;
  private readonly hasTable: boolean;
  private readonly hasTraceColumns: boolean;
  /** A cassette read without migrating may predate the `during` column. */
  private readonly hasDuring: boolean;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly path: string,
    options: { readonly readonly: boolean },
  ) {
    // The one cassette opener: read-only never writes a byte (a WAL file at rest is read into memory), writing migrates.
    this.db = openCassette(path, options.readonly ? 'read' : 'write');
    this.hasTable =
      this.db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mcp_exchanges'")
        .get() !== undefined;
    const columns = new Set(
      this.hasTable
        ? (this.db.prepare('PRAGMA table_info(mcp_exchanges)').all() as { name: string }[]).map(
            (column) => column.name,
          )
        : [],
    );
    this.hasTraceColumns = columns.has('request_id');
    this.hasDuring = columns.has('during');
  }

  append(exchange: McpExchange): void {
    this.statement(
      `INSERT INTO mcp_exchanges (id, session_id, session_given, server, method, subject, params, result, error, is_error,
         request_key, canonical_request, key_ordinal, started_at, total_ms, mock_set, ${traceColumns}, during)
       VALUES (@id, @session_id, @session_given, @server, @method, @subject, @params, @result, @error, @is_error,
         @request_key, @canonical_request, @key_ordinal, @started_at, @total_ms, @mock_set,
         @request_id, @transport, @mcp_session_id, @protocol_version, @during)`,
    ).run({
      id: exchange.id,
      session_id: exchange.sessionId,
      session_given: exchange.sessionGiven ? 1 : 0,
      server: exchange.server,
      method: exchange.method,
      subject: exchange.subject ?? null,
      params: json(exchange.params),
      result: json(exchange.result),
      error: json(exchange.error),
      is_error: exchangeFailed(exchange) ? 1 : 0,
      request_key: exchange.key,
      canonical_request: exchange.canonical,
      key_ordinal: exchange.ordinal,
      started_at: Math.round(exchange.startedAt),
      total_ms: Math.round(exchange.totalMs * 1000) / 1000,
      mock_set: exchange.mockSet ?? null,
      request_id: exchange.requestId ?? null,
      transport: exchange.transport ?? null,
      mcp_session_id: exchange.mcpSessionId ?? null,
      protocol_version: exchange.protocolVersion ?? null,
      during: exchange.during && exchange.during.length > 0 ? json(exchange.during) : null,
    });
  }

  /** The recording of the Nth identical request to a server, preferring one made in the same session, then the newest. */
  find(server: string, key: string, ordinal: number, session: string): McpRecording | undefined {
    if (!this.hasTable) return undefined;
    const row = this.statement(
      `SELECT id, result, error, ${this.hasDuring ? 'during' : 'NULL AS during'} FROM mcp_exchanges WHERE server = ? AND request_key = ? AND key_ordinal = ? ORDER BY (session_id = ?) DESC, started_at DESC, seq DESC LIMIT 1`,
    ).get(server, key, ordinal, session) as
      | { id: string; result: string | null; error: string | null; during: string | null }
      | undefined;
    return (
      row && {
        id: row.id,
        result: parse(row.result) as JsonValue | undefined,
        error: parse(row.error) as JsonRpcError | undefined,
        during: (parse(row.during) as JsonValue[] | undefined) ?? [],
      }
    );
  }

  /** How many times a request was recorded for a server (0 when never). */
  count(server: string, key: string): number {
    if (!this.hasTable) return 0;
    const value = this.statement(
      'SELECT max(key_ordinal) FROM mcp_exchanges WHERE server = ? AND request_key = ?',
    )
      .pluck()
      .get(server, key) as number | null;
    return value === null ? 0 : value + 1;
  }

  /** Canonical requests recorded for a server and method (newest 1000), to explain a miss. */
  candidates(
    server: string,
    method: string,
  ): { readonly id: string; readonly canonical: string }[] {
    if (!this.hasTable) return [];
    return this.statement(
      'SELECT id, canonical_request AS canonical FROM mcp_exchanges WHERE server = ? AND method = ? ORDER BY seq DESC LIMIT 1000',
    ).all(server, method) as { id: string; canonical: string }[];
  }

  /** The servers anything was recorded for, by name. */
  servers(): string[] {
    if (!this.hasTable) return [];
    return this.statement('SELECT DISTINCT server FROM mcp_exchanges ORDER BY server')
      .pluck()
      .all() as string[];
  }

  /** Whether anything was recorded for a server. */
  hasServer(server: string): boolean {
    return (
      this.hasTable &&
      this.statement('SELECT 1 FROM mcp_exchanges WHERE server = ? LIMIT 1').get(server) !==
        undefined
    );
  }

  /** Every stored exchange in capture order, optionally of one method. */
  list(filter: { readonly method?: string } = {}): StoredMcpExchange[] {
    if (!this.hasTable) return [];
    const rows = this.statement(
      `SELECT ${columns}${this.hasTraceColumns ? `, ${traceColumns}` : ''} FROM mcp_exchanges WHERE (@method IS NULL OR method = @method) ORDER BY started_at, seq`,
    ).all({ method: filter.method ?? null }) as Row[];
    return rows.map((row) => ({
      id: row.id,
      sessionId: row.session_id,
      sessionGiven: row.session_given === 1,
      server: row.server,
      method: row.method,
      subject: row.subject ?? undefined,
      params: parse(row.params) as JsonValue | undefined,
      result: parse(row.result) as JsonValue | undefined,
      error: parse(row.error) as JsonRpcError | undefined,
      ordinal: row.key_ordinal,
      startedAt: row.started_at,
      totalMs: row.total_ms,
      mockSet: row.mock_set ?? undefined,
      failed: row.is_error === 1,
      ...(typeof row.request_id === 'string' ? { requestId: row.request_id } : {}),
      ...(row.transport === 'stdio' || row.transport === 'http'
        ? { transport: row.transport }
        : {}),
      ...(typeof row.mcp_session_id === 'string' ? { mcpSessionId: row.mcp_session_id } : {}),
      ...(typeof row.protocol_version === 'string'
        ? { protocolVersion: row.protocol_version }
        : {}),
    }));
  }

  close(): void {
    this.db.close();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** The tools/call exchanges of a cassette, in capture order; none when the file does not exist (yet). */
export function readMcpToolCalls(path: string): StoredMcpExchange[] {
  if (!existsSync(path)) return [];
  const store = new McpStore(path, { readonly: true });
  try {
    return store.list({ method: 'tools/call' });
  } finally {
    store.close();
  }
}

interface Row {
  id: string;
  session_id: string;
  session_given: number;
  server: string;
  method: string;
  subject: string | null;
  params: string | null;
  result: string | null;
  error: string | null;
  key_ordinal: number;
  started_at: number;
  total_ms: number;
  mock_set: string | null;
  is_error: number;
  request_id?: string | null;
  transport?: McpTransport | null;
  mcp_session_id?: string | null;
  protocol_version?: string | null;
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parse(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}
