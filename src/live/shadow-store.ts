import { openShadowSql } from '../stores/open-shadow-database.js';
import type { SqlDatabase, SqlValue } from '../stores/sql-database.js';
import { policyFailed, type CallVerdict, type SessionVerdict } from './verdict-types.js';

export interface Retention {
  /** Calls (and sessions) kept at most; the oldest go first. Null: no row limit. */
  readonly maxRows: number | null;
  /** Rows older than this many ms go. Null: no age limit. */
  readonly maxAgeMs: number | null;
}

/**
 * Shadow-scoring results in SQLite: every scored call, every failure with its argument diff,
 * every ended session with its compact trajectory, and per-minute evaluation counts per policy
 * (for pass rates). Retention keeps a long-running staging proxy from filling the disk.
 * Tables are documented in the README; `calltape shadow report` reads them.
 */
export class ShadowStore {
  private readonly db: SqlDatabase;
  private retainedAt = 0;
  /**
   * Rows in each table, counted once at open and kept since (this store is the database's only
   * writer; in a shared PostgreSQL database, this replica's share plus what was there at open):
   * how far past `maxRows` a table is, without a count or a walk over it per write.
   */
  private readonly rows: { calls: number; sessions: number };

  constructor(
    /** The file, or the `postgres://` URL (print `location`, never this). */
    readonly path: string,
    private readonly retention: Retention,
  ) {
    this.db = openShadowSql(path, { readonly: false });
    this.rows = { calls: this.count('calls'), sessions: this.count('sessions') };
  }

  /** Where the results are, safe to print (a URL's password redacted). */
  get location(): string {
    return this.db.location;
  }

  /** Writes one batch in one transaction, then applies retention. */
  write(calls: readonly CallVerdict[], sessions: readonly SessionVerdict[]): void {
    // Evaluations are counted per minute, policy, tool and model: one upsert per group per batch, not per call.
    const counts = new Map<
      string,
      {
        minute: number;
        policy: string;
        tool: string;
        model: string;
        evaluated: number;
        failed: number;
      }
    >();
    const count = (
      at: number,
      policy: string,
      tool: string,
      model: string,
      failed: boolean,
    ): void => {
      const minute = Math.floor(at / 60_000);
      const key = `${minute}\u0000${policy}\u0000${tool}\u0000${model}`;
      let group = counts.get(key);
      if (!group)
        counts.set(key, (group = { minute, policy, tool, model, evaluated: 0, failed: 0 }));
      group.evaluated++;
      if (failed) group.failed++;
    };
    const write = (): void => {
      for (const call of calls) {
        this.rows.calls++;
        const callId = this.insertedId(
          'INSERT INTO calls (at, interaction_id, session_id, wire, model, tool, call_index, mocked, verdict, score, arguments, evaluated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          call.at,
          call.interactionId,
          call.sessionId,
          call.wire,
          call.model,
          call.tool,
          call.callIndex,
          call.mocked ? 1 : 0,
          call.verdict,
          call.score,
          call.arguments,
          JSON.stringify(call.evaluated),
        );
        for (const failure of call.failures)
          this.insertFailure(
            callId,
            null,
            call.at,
            call.sessionId,
            call.tool,
            call.model,
            failure.policy,
            failure.reason,
            failure.path ?? null,
            json(failure.expected),
            json(failure.actual),
            failure.message,
          );
        for (const policy of call.evaluated)
          count(call.at, policy, call.tool, call.model, policyFailed(call.failures, policy));
      }
      for (const session of sessions) {
        this.rows.sessions++;
        const sessionRow = this.insertedId(
          'INSERT INTO sessions (session_id, case_id, started_at, ended_at, model, verdict, score, turns, calls, evaluated, trajectory) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          session.sessionId,
          session.caseId ?? null,
          session.startedAt,
          session.endedAt,
          session.model,
          session.verdict,
          session.score,
          session.turns,
          session.calls,
          JSON.stringify(session.evaluated),
          JSON.stringify(session.trajectory),
        );
        for (const failure of session.failures)
          this.insertFailure(
            null,
            sessionRow,
            session.endedAt,
            session.sessionId,
            '',
            session.model,
            failure.policy,
            failure.reason,
            failure.path ?? null,
            json(failure.expected),
            json(failure.actual),
            failure.message,
          );
        for (const policy of session.evaluated)
          count(session.endedAt, policy, '', session.model, policyFailed(session.failures, policy));
      }
      for (const group of counts.values())
        this.db.run(
          'INSERT INTO policy_counts (minute, policy, tool, model, evaluated, failed) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (minute, policy, tool, model) DO UPDATE SET evaluated = policy_counts.evaluated + excluded.evaluated, failed = policy_counts.failed + excluded.failed',
          [group.minute, group.policy, group.tool, group.model, group.evaluated, group.failed],
        );
      this.applyRetention(Date.now());
    };
    const before = { ...this.rows };
    try {
      this.db.transaction(write);
    } catch (error) {
      // Rolled back: nothing this batch inserted or deleted is in the tables.
      Object.assign(this.rows, before);
      throw error;
    }
  }

  /** Deletes what retention says is too old or too many: calls and sessions, with their failures and counts. */
  applyRetention(now: number): void {
    const { maxRows, maxAgeMs } = this.retention;
    // At most once a second: retention is a bound on disk use, not an exact count at every instant.
    if (now - this.retainedAt < 1_000 && maxRows === null) return;
    this.retainedAt = now;
    const db = this.db;
    if (maxAgeMs !== null) {
      const cutoff = now - maxAgeMs;
      this.rows.calls -= db.run('DELETE FROM calls WHERE at < ?', [cutoff]);
      this.rows.sessions -= db.run('DELETE FROM sessions WHERE ended_at < ?', [cutoff]);
      db.run('DELETE FROM failures WHERE at < ?', [cutoff]);
      db.run('DELETE FROM policy_counts WHERE minute < ?', [Math.floor(cutoff / 60_000)]);
    }
    if (maxRows !== null) {
      // The oldest row to keep is found by stepping over only the rows past the cap, in id order.
      if (this.rows.calls > maxRows) {
        const oldest = this.oldestKept('calls', this.rows.calls - maxRows);
        // Fewer rows than counted (another replica's retention took some): count again, delete nothing.
        if (oldest === undefined) this.rows.calls = this.count('calls');
        else {
          this.rows.calls -= db.run('DELETE FROM calls WHERE id < ?', [oldest]);
          db.run('DELETE FROM failures WHERE call_id IS NOT NULL AND call_id < ?', [oldest]);
        }
      }
      if (this.rows.sessions > maxRows) {
        const oldest = this.oldestKept('sessions', this.rows.sessions - maxRows);
        // Fewer rows than counted (another replica's retention took some): count again, delete nothing.
        if (oldest === undefined) this.rows.sessions = this.count('sessions');
        else {
          this.rows.sessions -= db.run('DELETE FROM sessions WHERE id < ?', [oldest]);
          db.run('DELETE FROM failures WHERE session_row IS NOT NULL AND session_row < ?', [
            oldest,
          ]);
        }
      }
    }
  }

  close(): void {
    this.db.close();
  }

  /** Inserts a row and returns its id. */
  private insertedId(sql: string, ...values: SqlValue[]): number {
    return this.db.insert(sql, values);
  }

  private insertFailure(...values: SqlValue[]): void {
    this.db.run(
      'INSERT INTO failures (call_id, session_row, at, session_id, tool, model, policy, reason, path, expected, actual, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      values,
    );
  }

  /** The id of the row `skipped` rows past the oldest; undefined past the end. */
  private oldestKept(table: 'calls' | 'sessions', skipped: number): number | undefined {
    return this.db.get<{ id: number }>(`SELECT id FROM ${table} ORDER BY id LIMIT 1 OFFSET ?`, [
      skipped,
    ])?.id;
  }

  private count(table: 'calls' | 'sessions'): number {
    return this.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? 0;
  }
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
