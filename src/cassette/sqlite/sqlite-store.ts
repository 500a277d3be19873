import type Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import type { Interaction } from '../../trace/trace.js';
import type { RecordedExchange } from '../recorded-exchange.js';
import { closeAtRest } from './close-at-rest.js';
import { checkSchemaVersion, migrateCassette, openCassette } from './open-cassette.js';
import { readInteraction, type InteractionRow } from './read-interaction.js';
import {
  interactionColumns,
  interactionValues,
  placeholders,
  toolCallColumns,
  toolCallValues,
} from './stored-row.js';

/** A captured tool call as `calltape calls` lists it. */
export interface StoredToolCall {
  readonly interactionId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly model: string | null;
  readonly status: string;
  readonly choice: number;
  readonly callId: string | null;
  readonly index: number;
  readonly name: string;
  readonly argumentsRaw: string;
  readonly argumentsJson: string | null;
  readonly parseError: string | null;
  readonly complete: boolean;
  /** A calltape mock answered the call. */
  readonly mocked: boolean;
}

/** A `tool_calls` row joined with its interaction, as `toolCalls` selects it. */
interface ToolCallRow {
  readonly interaction_id: string;
  readonly session_id: string;
  readonly started_at: number;
  readonly model: string | null;
  readonly status: string;
  readonly choice: number;
  readonly call_id: string | null;
  readonly call_index: number;
  readonly name: string;
  readonly arguments_raw: string;
  readonly arguments_json: string | null;
  readonly parse_error: string | null;
  readonly complete: number;
  readonly mocked: number;
}

/** The columns a re-key reads of a stale recording. */
interface StaleRow {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly request_headers: string;
  readonly request_body: Buffer;
}

/**
 * The SQLite store behind a cassette file (opened by `openCassette`: WAL mode, versioned schema),
 * its statements prepared once as fields, writes batched in transactions by the caller
 * (`StoreWriter`).
 */
export class SqliteStore {
  private readonly db: Database.Database;
  private readonly insertMany: (exchanges: readonly RecordedExchange[]) => void;
  private readonly toolCallsStatement: Database.Statement<
    [{ session: string | null }],
    ToolCallRow
  >;
  private readonly interactionStatement: Database.Statement<[string], InteractionRow>;
  private readonly interactionsStatement: Database.Statement<
    [{ session: string | null }],
    InteractionRow
  >;

  /** This store opened the file for writing, so it leaves the file at rest when it closes. */
  private readonly ownsFile: boolean;

  /**
   * `readonly` never writes to the file (nor creates `-wal`/`-shm` beside it); `database` runs the
   * store over a connection already open, such as an in-memory copy (checked, or migrated when writable).
   */
  constructor(
    readonly path: string,
    options: { readonly readonly?: boolean; readonly database?: Database.Database } = {},
  ) {
    const readonly = options.readonly ?? false;
    if (options.database) {
      this.db = options.database;
      if (readonly) checkSchemaVersion(this.db, path);
      else migrateCassette(this.db, path);
    } else this.db = openCassette(path, readonly ? 'read' : 'write');
    this.ownsFile = !readonly && !options.database;
    this.insertMany = this.prepareInsert();
    this.toolCallsStatement = this.db.prepare(
      // A call is mocked when any interaction says so: in override mode the answer rides on a later request.
      `SELECT t.interaction_id, t.session_id, i.started_at, i.model, i.status, t.choice, t.call_id, t.call_index, t.name,
              t.arguments_raw, t.arguments_json, t.parse_error, t.complete,
              t.call_id IN (SELECT json_extract(m.value, '$.call_id') FROM interactions j, json_each(j.mocked_calls) m WHERE j.mocked_calls IS NOT NULL) AS mocked
         FROM tool_calls t JOIN interactions i ON i.id = t.interaction_id
        WHERE (@session IS NULL OR t.session_id = @session)
        ORDER BY i.started_at, i.seq, t.choice, t.position`,
    );
    this.interactionStatement = this.db.prepare('SELECT * FROM interactions WHERE id = ?');
    this.interactionsStatement = this.db.prepare(
      'SELECT * FROM interactions WHERE (@session IS NULL OR session_id = @session) ORDER BY started_at, seq',
    );
  }

  /** Appends exchanges in one transaction. */
  append(exchanges: readonly RecordedExchange[]): void {
    if (exchanges.length > 0) this.insertMany(exchanges);
  }

  /** Tool calls in capture order, optionally of one session. */
  toolCalls(filter: { readonly sessionId?: string | undefined } = {}): StoredToolCall[] {
    return this.toolCallsStatement.all({ session: filter.sessionId ?? null }).map((row) => ({
      interactionId: row.interaction_id,
      sessionId: row.session_id,
      startedAt: row.started_at,
      model: row.model,
      status: row.status,
      choice: row.choice,
      callId: row.call_id,
      index: row.call_index,
      name: row.name,
      argumentsRaw: row.arguments_raw,
      argumentsJson: row.arguments_json,
      parseError: row.parse_error,
      complete: row.complete === 1,
      mocked: row.mocked === 1,
    }));
  }

  /** One stored interaction by id, parsed again from its stored bytes. */
  interaction(id: string): Interaction | undefined {
    const row = this.interactionStatement.get(id);
    return row && readInteraction(row);
  }

  /** Stored interactions (the trace model, parsed again from the stored bytes), in capture order. */
  interactions(filter: { readonly sessionId?: string | undefined } = {}): Interaction[] {
    return this.interactionsStatement
      .all({ session: filter.sessionId ?? null })
      .map(readInteraction);
  }

  /**
   * Re-keys recordings stored under other matching rules, from their stored method, path, headers
   * and (redacted) body, then renumbers ordinals within each scope in recording order. Returns the
   * number of rows re-keyed. Changing `match` rules therefore never requires re-recording.
   */
  ensureKeyProfile(
    profile: string,
    keyFor: (row: {
      method: string;
      path: string;
      headers: Record<string, string | string[]>;
      body: Uint8Array;
    }) => { key: string; text: string },
  ): number {
    const staleCount = this.db
      .prepare('SELECT count(*) FROM interactions WHERE key_profile IS NOT @profile')
      .pluck();
    if ((staleCount.get({ profile }) as number) === 0) return 0;
    const stale = this.db.prepare<[{ profile: string }], StaleRow>(
      'SELECT seq, method, path, request_headers, request_body FROM interactions WHERE key_profile IS NOT @profile',
    );
    const update = this.db.prepare(
      'UPDATE interactions SET request_key = @key, canonical_request = @text, key_profile = @profile WHERE seq = @seq',
    );
    const renumber = this.db.prepare(
      `UPDATE interactions SET key_ordinal = (
         SELECT count(*) FROM interactions AS earlier
          WHERE earlier.request_key = interactions.request_key
            AND coalesce(earlier.ordinal_scope, '') = coalesce(interactions.ordinal_scope, '')
            AND earlier.seq < interactions.seq)`,
    );
    // IMMEDIATE: another proxy opening the same cassette waits instead of failing on a lock upgrade.
    return this.db
      .transaction(() => {
        const rows = stale.all({ profile });
        for (const row of rows) {
          const { key, text } = keyFor({
            method: row.method,
            path: row.path,
            headers: JSON.parse(row.request_headers) as Record<string, string | string[]>,
            body: row.request_body,
          });
          update.run({ key, text, profile, seq: row.seq });
        }
        if (rows.length > 0) renumber.run();
        return rows.length;
      })
      .immediate();
  }

  /** Closes the store; a file it wrote is left at rest (see `closeAtRest`). */
  close(): void {
    if (this.ownsFile) closeAtRest(this.db);
    else this.db.close();
  }

  private prepareInsert(): (exchanges: readonly RecordedExchange[]) => void {
    if (this.db.readonly)
      return () => {
        throw new CalltapeError('STORE_IO', `${this.path}: opened read-only`);
      };
    const session = this.db.prepare(
      `INSERT INTO sessions (id, first_seen_at, last_seen_at, interaction_count) VALUES (@id, @at, @at, 1)
       ON CONFLICT(id) DO UPDATE SET last_seen_at = max(last_seen_at, @at), interaction_count = interaction_count + 1`,
    );
    // Positional parameters (see stored-row.ts for why).
    const interaction = this.db.prepare(
      `INSERT INTO interactions (${interactionColumns.join(', ')}) VALUES (${placeholders(interactionColumns)})`,
    );
    const toolCall = this.db.prepare(
      `INSERT INTO tool_calls (${toolCallColumns.join(', ')}) VALUES (${placeholders(toolCallColumns)})`,
    );
    return this.db.transaction((exchanges: readonly RecordedExchange[]) => {
      for (const exchange of exchanges) {
        const trace = exchange.interaction;
        session.run({ id: trace.sessionId, at: trace.timing.startedAt });
        interaction.run(...interactionValues(exchange));
        for (const values of toolCallValues(trace)) toolCall.run(...values);
      }
    });
  }
}
