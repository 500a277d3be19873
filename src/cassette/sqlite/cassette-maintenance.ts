import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import { isSafeInteractionId } from '../export-names.js';
import { requireCassette } from './cassette-files.js';
import { openCassette } from './open-cassette.js';
import { closeAtRest as close } from './close-at-rest.js';

/**
 * Maintenance of whole cassettes (`calltape cassettes prune | merge`, recording cases again): each opens the file
 * through the store first, so it is migrated, and works in one IMMEDIATE transaction.
 */

/** A recording `prune` would delete. */
export interface PruneCandidate {
  readonly id: string;
  readonly sessionId: string;
  readonly method: string;
  readonly path: string;
  readonly model: string | null;
  readonly startedAt: number;
}

/**
 * The recordings a run did not use: neither served by it nor recorded since it started (so what
 * `calltape auto` recorded survives). Read-only.
 */
export function unusedRecordings(
  cassette: string,
  run: { readonly startedAt: number; readonly servedIds: ReadonlySet<string> },
): PruneCandidate[] {
  const db = openCassette(cassette, 'read');
  try {
    const rows = db
      .prepare(
        'SELECT id, session_id, method, path, model, started_at FROM interactions WHERE started_at < ? ORDER BY seq',
      )
      .all(run.startedAt) as {
      id: string;
      session_id: string;
      method: string;
      path: string;
      model: string | null;
      started_at: number;
    }[];
    return rows
      .filter((row) => !run.servedIds.has(row.id))
      .map((row) => ({
        id: row.id,
        sessionId: row.session_id,
        method: row.method,
        path: row.path,
        model: row.model,
        startedAt: row.started_at,
      }));
  } finally {
    db.close();
  }
}

/** Deletes recordings by id, with their tool calls, and brings sessions up to date; returns how many went. */
/** How many recordings a cassette holds that were made since `startedAt` (epoch ms). */
export function recordingsSince(cassette: string, startedAt: number): number {
  const db = openCassette(cassette, 'read');
  try {
    return db
      .prepare<[number], number>('SELECT count(*) FROM interactions WHERE started_at >= ?')
      .pluck()
      .get(startedAt) as number;
  } finally {
    db.close();
  }
}

export function deleteRecordings(cassette: string, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const db = open(cassette);
  try {
    return db
      .transaction(() => {
        const calls = db.prepare('DELETE FROM tool_calls WHERE interaction_id = ?');
        const interaction = db.prepare('DELETE FROM interactions WHERE id = ?');
        let deleted = 0;
        for (const id of ids) {
          calls.run(id);
          deleted += interaction.run(id).changes;
        }
        refreshSessions(db);
        return deleted;
      })
      .immediate();
  } finally {
    close(db);
  }
}

/**
 * Copies into `target` every interaction of `source` it does not hold yet (by id), with tool
 * calls and sessions. Where both recorded an identical request, the one recorded later wins
 * (lookups prefer the newest recording). Returns the number of interactions added.
 */
export function mergeCassette(target: string, source: string): number {
  requireCassette(source);
  // Migrated first, so both sides have the same columns.
  openCassette(source, 'write').close();
  const db = open(target);
  const columns = (table: string): string =>
    (db.pragma(`table_info(${table})`) as { name: string }[])
      .map((column) => column.name)
      .filter((name) => name !== 'seq' && name !== 'last_replay_run')
      .join(', ');
  db.prepare('ATTACH DATABASE ? AS other').run(source);
  try {
    // Ids become file names on export: a source with an id that cannot be one is refused whole.
    const ids = db.prepare('SELECT id FROM other.interactions').pluck().all() as unknown[];
    const bad = ids.find((id) => typeof id !== 'string' || !isSafeInteractionId(id));
    if (bad !== undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${source}: interaction id ${JSON.stringify(String(bad).slice(0, 80))} is not an interaction id (letters, digits, . _ -, up to 128)`,
      );
    return db
      .transaction(() => {
        // Sessions are brought up to date at the end; check references at commit.
        db.pragma('defer_foreign_keys = ON');
        const interactionColumns = columns('interactions');
        const added = db
          .prepare(
            `INSERT INTO interactions (${interactionColumns}) SELECT ${interactionColumns} FROM other.interactions WHERE id NOT IN (SELECT id FROM main.interactions) ORDER BY seq`,
          )
          .run().changes;
        const callColumns = columns('tool_calls');
        db.prepare(
          `INSERT OR IGNORE INTO tool_calls (${callColumns}) SELECT ${callColumns} FROM other.tool_calls`,
        ).run();
        db.exec(`INSERT INTO sessions (id, first_seen_at, last_seen_at, interaction_count)
            SELECT session_id, min(started_at), max(started_at), count(*) FROM interactions GROUP BY session_id
          ON CONFLICT(id) DO UPDATE SET first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at, interaction_count = excluded.interaction_count`);
        return added;
      })
      .immediate();
  } finally {
    db.prepare('DETACH DATABASE other').run();
    close(db);
  }
}

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
 * MCP exchanges of the sessions go the same way. A cassette the run never created is left alone.
 * Earlier recordings of any session `stale` names are deleted too (samples a case no longer runs).
 *
 * After an auto run, `served` holds the recordings it replayed: a session in `replaced` that
 * recorded something new keeps those and loses its other earlier recordings (what a prompt
 * change made unreachable), while a session that only replayed is left as it is. MCP exchanges
 * stay: an auto run may have replayed them, and they are not counted in `served`.
 */
export function supersedeSessions(
  cassette: string,
  since: number,
  replaced: readonly string[],
  failed: readonly string[],
  stale: (session: string) => boolean = () => false,
  served?: ReadonlySet<string>,
): Superseded {
  if ((replaced.length === 0 && failed.length === 0) || !existsSync(cassette))
    return { replaced: 0, rolledBack: 0 };
  const db = open(cassette);
  try {
    const removing = (at: string): ((session: string) => number) => {
      const calls = db.prepare(
        `DELETE FROM tool_calls WHERE interaction_id IN (SELECT id FROM interactions WHERE session_id = ? AND ${at})`,
      );
      const mcp = db.prepare(`DELETE FROM mcp_exchanges WHERE session_id = ? AND ${at}`);
      const interactions = db.prepare(`DELETE FROM interactions WHERE session_id = ? AND ${at}`);
      return (session) => {
        calls.run(session, since);
        mcp.run(session, since);
        return interactions.run(session, since).changes;
      };
    };
    const removeEarlier = served ? unservedRemover(db, since, served) : removing('started_at < ?');
    const removeThisRun = removing('started_at >= ?');
    const earlier = db.prepare(
      'SELECT 1 FROM interactions WHERE session_id = ? AND started_at < ? LIMIT 1',
    );
    const earlierSessions = db
      .prepare('SELECT DISTINCT session_id FROM interactions WHERE started_at < ?')
      .pluck();
    return db
      .transaction((): Superseded => {
        let replacedRows = 0;
        for (const session of replaced) replacedRows += removeEarlier(session);
        for (const session of earlierSessions.all(since) as string[])
          if (stale(session)) replacedRows += removeEarlier(session);
        let rolledBack = 0;
        for (const session of failed)
          if (earlier.get(session, since) !== undefined) rolledBack += removeThisRun(session);
        refreshSessions(db);
        return { replaced: replacedRows, rolledBack };
      })
      .immediate();
  } finally {
    close(db);
  }
}

/**
 * Deletes a session's recordings from before `since` that the run did not serve, when the run
 * recorded something new in it (auto mode); a session the run only replayed keeps everything.
 */
function unservedRemover(
  db: Database.Database,
  since: number,
  served: ReadonlySet<string>,
): (session: string) => number {
  const recordedNow = db.prepare(
    'SELECT 1 FROM interactions WHERE session_id = ? AND started_at >= ? LIMIT 1',
  );
  const earlier = db
    .prepare('SELECT id FROM interactions WHERE session_id = ? AND started_at < ?')
    .pluck();
  const calls = db.prepare('DELETE FROM tool_calls WHERE interaction_id = ?');
  const interaction = db.prepare('DELETE FROM interactions WHERE id = ?');
  return (session) => {
    if (recordedNow.get(session, since) === undefined) return 0;
    let removed = 0;
    for (const id of earlier.all(session, since) as string[])
      if (!served.has(id)) {
        calls.run(id);
        removed += interaction.run(id).changes;
      }
    return removed;
  };
}

/** Brings the sessions table up to date after interactions were deleted. */
function refreshSessions(db: Database.Database): void {
  db.exec(`DELETE FROM sessions WHERE id NOT IN (SELECT session_id FROM interactions);
    UPDATE sessions SET interaction_count = (SELECT count(*) FROM interactions WHERE session_id = sessions.id),
      first_seen_at = coalesce((SELECT min(started_at) FROM interactions WHERE session_id = sessions.id), first_seen_at),
      last_seen_at = coalesce((SELECT max(started_at) FROM interactions WHERE session_id = sessions.id), last_seen_at)`);
}

function open(cassette: string): Database.Database {
  requireCassette(cassette);
  return openCassette(cassette, 'write');
}
