import type Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import { isSafeInteractionId } from '../export-names.js';
import { requireCassette } from './cassette-files.js';
import { openCassette } from './open-cassette.js';

/**
 * Maintenance of whole cassettes (`calltape cassettes prune | merge`): each opens the file
 * through the store first, so it is migrated, and works in one IMMEDIATE transaction.
 */

/**
 * Deletes the recordings the last replay run did not serve (with their tool calls and emptied
 * sessions). Returns how many were (or, with `dryRun`, would be) deleted; undefined when the
 * cassette was never replayed.
 */
export function pruneUnused(cassette: string, dryRun: boolean): number | undefined {
  const db = open(cassette);
  try {
    const last = db.prepare('SELECT max(id) FROM replay_runs').pluck().get() as number | null;
    if (last === null) return undefined;
    const unused = db.prepare('SELECT count(*) FROM interactions WHERE last_replay_run IS NOT ?').pluck().get(last) as number;
    if (dryRun || unused === 0) return unused;
    db.transaction(() => {
      db.prepare('DELETE FROM tool_calls WHERE interaction_id IN (SELECT id FROM interactions WHERE last_replay_run IS NOT ?)').run(last);
      db.prepare('DELETE FROM interactions WHERE last_replay_run IS NOT ?').run(last);
      db.exec(`DELETE FROM sessions WHERE id NOT IN (SELECT session_id FROM interactions);
        UPDATE sessions SET interaction_count = (SELECT count(*) FROM interactions WHERE session_id = sessions.id)`);
    }).immediate();
    return unused;
  } finally {
    db.close();
  }
}

/**
 * Copies into `target` every interaction of `source` it does not hold yet (by id), with tool
 * calls and sessions. Where both recorded an identical request, the target's wins (lookups
 * prefer the earlier recording). Returns the number of interactions added.
 */
export function mergeCassette(target: string, source: string): number {
  requireCassette(source);
  // Migrated first, so both sides have the same columns.
  openCassette(source, 'write').close();
  const db = open(target);
  const columns = (table: string): string => (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name).filter((name) => name !== 'seq' && name !== 'last_replay_run').join(', ');
  db.prepare('ATTACH DATABASE ? AS other').run(source);
  try {
    // Ids become file names on export: a source with an id that cannot be one is refused whole.
    const ids = db.prepare('SELECT id FROM other.interactions').pluck().all() as unknown[];
    const bad = ids.find((id) => typeof id !== 'string' || !isSafeInteractionId(id));
    if (bad !== undefined) throw new CalltapeError('CONFIG_INVALID', `${source}: interaction id ${JSON.stringify(String(bad).slice(0, 80))} is not an interaction id (letters, digits, . _ -, up to 128)`);
    return db
      .transaction(() => {
        // Sessions are brought up to date at the end; check references at commit.
        db.pragma('defer_foreign_keys = ON');
        const interactionColumns = columns('interactions');
        const added = db.prepare(`INSERT INTO interactions (${interactionColumns}) SELECT ${interactionColumns} FROM other.interactions WHERE id NOT IN (SELECT id FROM main.interactions) ORDER BY seq`).run().changes;
        const callColumns = columns('tool_calls');
        db.prepare(`INSERT OR IGNORE INTO tool_calls (${callColumns}) SELECT ${callColumns} FROM other.tool_calls`).run();
        db.exec(`INSERT INTO sessions (id, first_seen_at, last_seen_at, interaction_count)
            SELECT session_id, min(started_at), max(started_at), count(*) FROM interactions GROUP BY session_id
          ON CONFLICT(id) DO UPDATE SET first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at, interaction_count = excluded.interaction_count`);
        return added;
      })
      .immediate();
  } finally {
    db.prepare('DETACH DATABASE other').run();
    db.close();
  }
}

function open(cassette: string): Database.Database {
  requireCassette(cassette);
  return openCassette(cassette, 'write');
}
