import Database from 'better-sqlite3';
import { boundPageCache } from '../cassette/sqlite/open-cassette.js';
import { CalltapeError } from '../errors.js';
import { shadowSchema } from './shadow-schema.js';
import { policyFailed, type CallVerdict, type SessionVerdict } from './verdict-types.js';
import { preparePrivateDatabase } from '../private-files.js';

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
  private readonly db: Database.Database;
  private readonly insertCall: Database.Statement;
  private readonly insertFailure: Database.Statement;
  private readonly insertSession: Database.Statement;
  private readonly countPolicy: Database.Statement;
  private retainedAt = 0;
  /**
   * Rows in each table, counted once at open and kept since (this store is the database's only
   * writer): how far past `maxRows` a table is, without a count or a walk over it per write.
   */
  private readonly rows: { calls: number; sessions: number };
  /** Retention statements, prepared once: retention runs with every write. */
  private readonly trim: {
    readonly [
      name in
        | 'callsBefore'
        | 'sessionsBefore'
        | 'failuresBefore'
        | 'countsBefore'
        | 'keptCall'
        | 'callsBelow'
        | 'callFailuresBelow'
        | 'keptSession'
        | 'sessionsBelow'
        | 'sessionFailuresBelow'
    ]: Database.Statement;
  };

  constructor(
    readonly path: string,
    private readonly retention: Retention,
  ) {
    try {
      preparePrivateDatabase(path);
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 5000');
      // Its writer appends to indexes (session ids) that grow all over the file, as the cassette writer's do.
      boundPageCache(this.db);
      this.db.exec(shadowSchema);
    } catch (error) {
      throw new CalltapeError(
        'STORE_IO',
        `${path}: cannot open the shadow-scoring database: ${(error as Error).message}`,
      );
    }
    const count = (table: string): number =>
      this.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    this.rows = { calls: count('calls'), sessions: count('sessions') };
    this.insertCall = this.db.prepare(
      'INSERT INTO calls (at, interaction_id, session_id, wire, model, tool, call_index, mocked, verdict, score, arguments, evaluated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertFailure = this.db.prepare(
      'INSERT INTO failures (call_id, session_row, at, session_id, tool, model, policy, reason, path, expected, actual, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertSession = this.db.prepare(
      'INSERT INTO sessions (session_id, case_id, started_at, ended_at, model, verdict, score, turns, calls, evaluated, trajectory) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.trim = {
      callsBefore: this.db.prepare('DELETE FROM calls WHERE at < ?'),
      sessionsBefore: this.db.prepare('DELETE FROM sessions WHERE ended_at < ?'),
      failuresBefore: this.db.prepare('DELETE FROM failures WHERE at < ?'),
      countsBefore: this.db.prepare('DELETE FROM policy_counts WHERE minute < ?'),
      keptCall: this.db.prepare('SELECT id FROM calls ORDER BY id LIMIT 1 OFFSET ?').pluck(),
      callsBelow: this.db.prepare('DELETE FROM calls WHERE id < ?'),
      callFailuresBelow: this.db.prepare(
        'DELETE FROM failures WHERE call_id IS NOT NULL AND call_id < ?',
      ),
      keptSession: this.db.prepare('SELECT id FROM sessions ORDER BY id LIMIT 1 OFFSET ?').pluck(),
      sessionsBelow: this.db.prepare('DELETE FROM sessions WHERE id < ?'),
      sessionFailuresBelow: this.db.prepare(
        'DELETE FROM failures WHERE session_row IS NOT NULL AND session_row < ?',
      ),
    };
    this.countPolicy = this.db.prepare(
      'INSERT INTO policy_counts (minute, policy, tool, model, evaluated, failed) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (minute, policy, tool, model) DO UPDATE SET evaluated = evaluated + excluded.evaluated, failed = failed + excluded.failed',
    );
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
    const write = this.db.transaction(() => {
      for (const call of calls) {
        this.rows.calls++;
        const { lastInsertRowid } = this.insertCall.run(
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
          this.insertFailure.run(
            lastInsertRowid,
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
        const { lastInsertRowid } = this.insertSession.run(
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
          this.insertFailure.run(
            null,
            lastInsertRowid,
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
        this.countPolicy.run(
          group.minute,
          group.policy,
          group.tool,
          group.model,
          group.evaluated,
          group.failed,
        );
      this.applyRetention(Date.now());
    });
    const before = { ...this.rows };
    try {
      write();
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
    const trim = this.trim;
    if (maxAgeMs !== null) {
      const cutoff = now - maxAgeMs;
      this.rows.calls -= trim.callsBefore.run(cutoff).changes;
      this.rows.sessions -= trim.sessionsBefore.run(cutoff).changes;
      trim.failuresBefore.run(cutoff);
      trim.countsBefore.run(Math.floor(cutoff / 60_000));
    }
    if (maxRows !== null) {
      // The oldest row to keep is found by stepping over only the rows past the cap, in id order.
      if (this.rows.calls > maxRows) {
        const oldest = trim.keptCall.get(this.rows.calls - maxRows) as number;
        this.rows.calls -= trim.callsBelow.run(oldest).changes;
        trim.callFailuresBelow.run(oldest);
      }
      if (this.rows.sessions > maxRows) {
        const oldest = trim.keptSession.get(this.rows.sessions - maxRows) as number;
        this.rows.sessions -= trim.sessionsBelow.run(oldest).changes;
        trim.sessionFailuresBelow.run(oldest);
      }
    }
  }

  close(): void {
    this.db.close();
  }
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
