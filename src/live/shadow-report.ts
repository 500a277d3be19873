import { openShadowSql } from '../stores/open-shadow-database.js';
import type { SqlDatabase } from '../stores/sql-database.js';

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
 * Opens a shadow-scoring database (a file or a `postgres://` URL) to read; one that does not
 * exist or cannot be opened is CONFIG_INVALID naming it, with how to point at it (`where`).
 */
export function openShadowDatabase(path: string, where: string): SqlDatabase {
  return openShadowSql(path, { readonly: true, where });
}

/** `sum(condition)` in SQL both SQLite and PostgreSQL take: the rows where it holds. */
const countWhere = (condition: string): string =>
  `coalesce(sum(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`;

/** Reads the shadow database for the window from `since` (epoch ms) to now. */
export function shadowReport(path: string, since: number, now = Date.now()): ShadowReport {
  const db = openShadowDatabase(path, 'pass --db when it is elsewhere');
  try {
    const rates = (sql: string): PassRateRow[] =>
      db
        .all<{
          name: string;
          evaluated: number;
          failed: number;
          mean: number | null;
        }>(sql, [since])
        .map((row) => ({
          name: row.name,
          evaluated: row.evaluated,
          failed: row.failed,
          passRate: row.evaluated === 0 ? 1 : (row.evaluated - row.failed) / row.evaluated,
          meanScore: row.mean,
        }));
    const scored = "FROM calls WHERE at >= ? AND evaluated != '[]'";
    const failedCalls = countWhere("verdict = 'fail'");
    const byTool = rates(
      `SELECT tool AS name, count(*) AS evaluated, ${failedCalls} AS failed, avg(score) AS mean ${scored} GROUP BY tool ORDER BY ${failedCalls} * 1.0 / count(*) DESC, tool`,
    );
    const byModel = rates(
      `SELECT model AS name, count(*) AS evaluated, ${failedCalls} AS failed, avg(score) AS mean ${scored} GROUP BY model ORDER BY ${failedCalls} * 1.0 / count(*) DESC, model`,
    );
    const byPolicy = db
      .all<{ name: string; evaluated: number; failed: number }>(
        'SELECT policy AS name, sum(evaluated) AS evaluated, sum(failed) AS failed FROM policy_counts WHERE minute >= ? GROUP BY policy ORDER BY sum(failed) * 1.0 / nullif(sum(evaluated), 0) DESC, policy',
        [Math.floor(since / 60_000)],
      )
      .map((row) => ({
        ...row,
        passRate: row.evaluated === 0 ? 1 : (row.evaluated - row.failed) / row.evaluated,
        meanScore: null,
      }));
    const offenders = db.all<Offender>(
      'SELECT policy, tool, reason, count(*) AS count, max(message) AS example, max(session_id) AS session FROM failures WHERE at >= ? GROUP BY policy, tool, reason ORDER BY count(*) DESC, policy, tool, reason LIMIT 10',
      [since],
    );
    // PostgreSQL folds unquoted names to lower case: the camel-case one is quoted.
    const worstSessions = db.all<{
      session: string;
      failures: number;
      verdict: string;
      endedAt: number;
    }>(
      'SELECT s.session_id AS session, s.verdict AS verdict, s.ended_at AS "endedAt", (SELECT count(*) FROM failures f WHERE f.session_id = s.session_id AND f.at >= ?) AS failures FROM sessions s WHERE s.ended_at >= ? AND s.verdict != \'pass\' ORDER BY failures DESC, s.ended_at DESC LIMIT 5',
      [since, since],
    );
    const calls = db.get<{ n: number }>(`SELECT count(*) AS n ${scored}`, [since])?.n ?? 0;
    const unscored =
      db.get<{ n: number }>("SELECT count(*) AS n FROM calls WHERE at >= ? AND verdict = 'error'", [
        since,
      ])?.n ?? 0;
    const sessions = db.get<{ total: number; failed: number }>(
      `SELECT count(*) AS total, ${countWhere("verdict = 'fail'")} AS failed FROM sessions WHERE ended_at >= ?`,
      [since],
    ) ?? { total: 0, failed: 0 };
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
