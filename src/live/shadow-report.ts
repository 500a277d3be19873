import Database from 'better-sqlite3';
import { CalltapeError } from '../errors.js';

export interface PassRateRow {
  readonly name: string;
  readonly evaluated: number;
  readonly failed: number;
  readonly passRate: number;
  readonly meanScore: number | null;
}

export interface Offender {
  readonly policy: string;
  readonly tool: string;
  readonly reason: string;
  readonly count: number;
  readonly example: string;
  readonly session: string;
}

export interface ShadowReport {
  readonly since: number;
  readonly until: number;
  readonly calls: number;
  /** Calls (or rounds) whose scoring threw: `error` verdicts, in no pass rate. */
  readonly unscored: number;
  readonly sessions: { readonly total: number; readonly failed: number };
  readonly byTool: readonly PassRateRow[];
  readonly byModel: readonly PassRateRow[];
  readonly byPolicy: readonly PassRateRow[];
  readonly offenders: readonly Offender[];
  readonly worstSessions: readonly {
    readonly session: string;
    readonly failures: number;
    readonly verdict: string;
    readonly endedAt: number;
  }[];
}

/**
 * Opens a shadow-scoring database read-only; one that does not exist or cannot be opened is
 * CONFIG_INVALID naming the file, with how to point at it (`where`).
 */
export function openShadowDatabase(path: string, where: string): Database.Database {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: cannot open the shadow-scoring database: ${(error as Error).message}`,
      `It is written by calltape proxy --policies; ${where}.`,
    );
  }
}

/** Reads the shadow database for the window from `since` (epoch ms) to now. */
export function shadowReport(path: string, since: number, now = Date.now()): ShadowReport {
  const db = openShadowDatabase(path, 'pass --db when it is elsewhere');
  try {
    const rates = (sql: string): PassRateRow[] =>
      (
        db.prepare(sql).all(since) as {
          name: string;
          evaluated: number;
          failed: number;
          mean: number | null;
        }[]
      ).map((row) => ({
        name: row.name,
        evaluated: row.evaluated,
        failed: row.failed,
        passRate: row.evaluated === 0 ? 1 : (row.evaluated - row.failed) / row.evaluated,
        meanScore: row.mean,
      }));
    const scored = "FROM calls WHERE at >= ? AND evaluated != '[]'";
    const byTool = rates(
      `SELECT tool AS name, count(*) AS evaluated, sum(verdict = 'fail') AS failed, avg(score) AS mean ${scored} GROUP BY tool ORDER BY failed * 1.0 / count(*) DESC, tool`,
    );
    const byModel = rates(
      `SELECT model AS name, count(*) AS evaluated, sum(verdict = 'fail') AS failed, avg(score) AS mean ${scored} GROUP BY model ORDER BY failed * 1.0 / count(*) DESC, model`,
    );
    const byPolicy = (
      db
        .prepare(
          'SELECT policy AS name, sum(evaluated) AS evaluated, sum(failed) AS failed FROM policy_counts WHERE minute >= ? GROUP BY policy ORDER BY sum(failed) * 1.0 / sum(evaluated) DESC, policy',
        )
        .all(Math.floor(since / 60_000)) as { name: string; evaluated: number; failed: number }[]
    ).map((row) => ({
      ...row,
      passRate: row.evaluated === 0 ? 1 : (row.evaluated - row.failed) / row.evaluated,
      meanScore: null,
    }));
    const offenders = db
      .prepare(
        'SELECT policy, tool, reason, count(*) AS count, max(message) AS example, max(session_id) AS session FROM failures WHERE at >= ? GROUP BY policy, tool, reason ORDER BY count DESC, policy, tool, reason LIMIT 10',
      )
      .all(since) as Offender[];
    const worstSessions = db
      .prepare(
        "SELECT s.session_id AS session, s.verdict AS verdict, s.ended_at AS endedAt, (SELECT count(*) FROM failures f WHERE f.session_id = s.session_id AND f.at >= ?) AS failures FROM sessions s WHERE s.ended_at >= ? AND s.verdict != 'pass' ORDER BY failures DESC, s.ended_at DESC LIMIT 5",
      )
      .all(since, since) as {
      session: string;
      failures: number;
      verdict: string;
      endedAt: number;
    }[];
    const calls = db.prepare(`SELECT count(*) ${scored}`).pluck().get(since) as number;
    const unscored = db
      .prepare("SELECT count(*) FROM calls WHERE at >= ? AND verdict = 'error'")
      .pluck()
      .get(since) as number;
    const sessions = db
      .prepare(
        "SELECT count(*) AS total, coalesce(sum(verdict = 'fail'), 0) AS failed FROM sessions WHERE ended_at >= ?",
      )
      .get(since) as { total: number; failed: number };
    return {
      since,
      until: now,
      calls,
      unscored,
      sessions,
      byTool,
      byModel,
      byPolicy,
      offenders,
      worstSessions,
    };
  } finally {
    db.close();
  }
}
