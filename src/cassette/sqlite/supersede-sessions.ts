import { existsSync } from 'node:fs';
import { openCassette } from './open-cassette.js';
import { closeAtRest } from './close-at-rest.js';

/** What recording sessions again did to a cassette's earlier recordings of them. */
export interface Superseded {
  /** Earlier recordings deleted: their sessions were recorded again. */
  readonly replaced: number;
  /** Recordings of this run deleted: their re-recording failed, so the earlier ones stay. */
  readonly rolledBack: number;
}

/**
 * After a record run (`calltape test --mode record`) recorded sessions again: each session in
 * `replaced` keeps only what the run recorded (from `since` on), so replay and `calltape score`
 * see one run of it, not every run ever recorded under its id. Each session in `failed` that
 * held earlier recordings keeps those and loses what the run recorded: a re-recording that
 * failed (no key, an unreachable upstream) never costs the recording it would have replaced.
 * MCP exchanges of the sessions go the same way. One IMMEDIATE transaction.
 */
export function supersedeSessions(
  cassette: string,
  since: number,
  replaced: readonly string[],
  failed: readonly string[],
): Superseded {
  if ((replaced.length === 0 && failed.length === 0) || !existsSync(cassette))
    return { replaced: 0, rolledBack: 0 };
  const db = openCassette(cassette, 'write');
  try {
    return db
      .transaction((): Superseded => {
        const remove = (session: string, when: 'before' | 'from'): number => {
          const at = when === 'before' ? 'started_at < ?' : 'started_at >= ?';
          db.prepare(
            `DELETE FROM tool_calls WHERE interaction_id IN (SELECT id FROM interactions WHERE session_id = ? AND ${at})`,
          ).run(session, since);
          db.prepare(`DELETE FROM mcp_exchanges WHERE session_id = ? AND ${at}`).run(
            session,
            since,
          );
          return db
            .prepare(`DELETE FROM interactions WHERE session_id = ? AND ${at}`)
            .run(session, since).changes;
        };
        const earlier = db.prepare(
          'SELECT 1 FROM interactions WHERE session_id = ? AND started_at < ? LIMIT 1',
        );
        let replacedRows = 0;
        for (const session of replaced) replacedRows += remove(session, 'before');
        let rolledBack = 0;
        for (const session of failed)
          if (earlier.get(session, since) !== undefined) rolledBack += remove(session, 'from');
        db.exec(`DELETE FROM sessions WHERE id NOT IN (SELECT session_id FROM interactions);
          UPDATE sessions SET interaction_count = (SELECT count(*) FROM interactions WHERE session_id = sessions.id),
            first_seen_at = coalesce((SELECT min(started_at) FROM interactions WHERE session_id = sessions.id), first_seen_at),
            last_seen_at = coalesce((SELECT max(started_at) FROM interactions WHERE session_id = sessions.id), last_seen_at)`);
        return { replaced: replacedRows, rolledBack };
      })
      .immediate();
  } finally {
    closeAtRest(db);
  }
}
