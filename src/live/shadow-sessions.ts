import { CalltapeError } from '../errors.js';
import { insertOrder } from '../stores/sql-database.js';
import { openShadowDatabase } from './shadow-report.js';
import { undecidedReasons, type PolicyReason } from './verdict-types.js';

// Failures that mean a judge or case could not decide are no verdict on the agent: they promote nothing.
const undecided = [...undecidedReasons].map((reason) => `'${reason}'`).join(', ');

/** A session as shadow scoring judged it: what `calltape cases promote` takes as the reason to promote it. */
export interface ShadowSession {
  readonly sessionId: string;
  /** `fail` when any call or session policy failed it. */
  readonly verdict: 'pass' | 'fail' | 'error';
  /** When it was last scored (epoch ms). */
  readonly endedAt: number;
  /** `policy/reason: message` of every failure, calls' and the session's, oldest first, without repeats. */
  readonly failures: readonly string[];
}

/** Which sessions to read: one by id, or every one that failed a policy since a time (epoch ms). */
export type ShadowSelection = { readonly session: string } | { readonly failingSince: number };

/**
 * Reads sessions from a shadow-scoring database (written by `calltape proxy --policies` or
 * `calltape score --policies --shadow-db`), read-only. A database that cannot be opened, or a
 * session it never scored, is refused (CONFIG_INVALID) naming the file and the session.
 * Failing sessions come newest first.
 */
export function readShadowSessions(path: string, selection: ShadowSelection): ShadowSession[] {
  const db = openShadowDatabase(path, 'pass --shadow-db with its path');
  try {
    const ids =
      'session' in selection
        ? [selection.session]
        : db
            .all<{ session_id: string }>(
              `SELECT session_id FROM (
                 SELECT session_id, ended_at AS at FROM sessions WHERE verdict = 'fail' AND ended_at >= ?
                 UNION ALL SELECT session_id, at FROM failures WHERE at >= ? AND reason NOT IN (${undecided})) AS failing
               GROUP BY session_id ORDER BY max(at) DESC, session_id`,
              [selection.failingSince, selection.failingSince],
            )
            .map((row) => row.session_id);
    return ids.map((sessionId) => {
      const rows = db.all<{ verdict: string; ended_at: number }>(
        'SELECT verdict, ended_at FROM sessions WHERE session_id = ? ORDER BY ended_at DESC',
        [sessionId],
      );
      const failures = db.all<{
        policy: string;
        reason: string;
        message: string;
        at: number;
      }>(
        `SELECT policy, reason, message, at FROM failures WHERE session_id = ? ORDER BY at, ${insertOrder(db)}`,
        [sessionId],
      );
      if (rows.length === 0 && failures.length === 0)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${db.location}: shadow scoring never scored a session "${sessionId}"`,
          'calltape shadow report --db <file> lists the worst sessions; --failing --since 1h takes every failing one.',
        );
      const decided = failures.filter(
        (failure) => !undecidedReasons.has(failure.reason as PolicyReason),
      );
      const verdict =
        decided.length > 0 || rows.some((row) => row.verdict === 'fail')
          ? 'fail'
          : rows.some((row) => row.verdict === 'error')
            ? 'error'
            : 'pass';
      return {
        sessionId,
        verdict,
        endedAt: Math.max(...rows.map((row) => row.ended_at), ...failures.map((row) => row.at)),
        failures: [
          ...new Set(
            failures.map((failure) => `${failure.policy}/${failure.reason}: ${failure.message}`),
          ),
        ],
      };
    });
  } finally {
    db.close();
  }
}
