import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CalltapeError } from '../../errors.js';
import { missingCassetteHint } from '../missing-cassette-hint.js';
import { fromText, toText, type InteractionRecord, type ToolCallRecord } from '../cassette-text.js';
import {
  fileInside,
  isExportFileName,
  isRegularFile,
  isSafeInteractionId,
  isWritableTarget,
} from '../export-names.js';
import { migrations } from './migrations.js';
import { reviewText, type StoredInteraction } from '../review-text.js';
import { sortBySession } from '../session-order.js';
import { openCassette } from './open-cassette.js';
import { closeAtRest } from './close-at-rest.js';
import { makePrivateFolder, writePrivateFile } from '../../private-files.js';

const manifestName = 'cassette.yaml';

/**
 * Writes a cassette as text files for code review: `NNNNNN-<id>.yaml` per interaction (request,
 * response, tool calls) and `NNNNNN-<id>.timings.yaml` beside it. Deterministic: the same
 * cassette always gives the same files, and stale files from an earlier export are removed.
 * Returns the number of interactions written.
 */
export function exportCassette(cassette: string, folder: string): number {
  const db = openReadOnly(cassette);
  try {
    makePrivateFolder(folder);
    const documents = interactionTexts(db);
    const unsafe = documents.find(({ id }) => !isSafeInteractionId(id));
    if (unsafe)
      throw new CalltapeError(
        'STORE_IO',
        `${cassette}: interaction id ${JSON.stringify(unsafe.id.slice(0, 80))} cannot be a file name (letters, digits, . _ -)`,
      );
    // Only export's own earlier files go, and only regular ones: never a link, never another file the folder holds.
    for (const name of readdirSync(folder))
      if (isExportFileName(name) && isRegularFile(join(folder, name))) rmSync(join(folder, name));
    const write = (name: string, text: string): void => {
      const path = fileInside(folder, name);
      if (!isWritableTarget(path))
        throw new CalltapeError(
          'STORE_IO',
          `${path}: not a regular file; export never writes through a link`,
        );
      writePrivateFile(path, text);
    };
    documents.forEach(({ id, text }, index) => {
      const stem = `${String(index + 1).padStart(6, '0')}-${id}`;
      write(`${stem}.yaml`, text.interaction);
      write(`${stem}.timings.yaml`, text.timings);
    });
    write(
      manifestName,
      `schema_version: ${String(db.pragma('user_version', { simple: true }))}\ninteractions: ${documents.length}\n`,
    );
    return documents.length;
  } finally {
    db.close();
  }
}

/** Builds a cassette from an exported folder; `import(export(x))` holds the same rows as `x`. */
export function importCassette(folder: string, cassette: string): number {
  if (existsSync(cassette))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${cassette} already exists; import writes a new cassette`,
      'Choose another --out, or remove the file.',
    );
  if (!existsSync(join(folder, manifestName)))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${folder}: no ${manifestName}; not an exported cassette`,
    );
  const manifest = readFileSync(join(folder, manifestName), 'utf8');
  const version = Number(/schema_version: (\d+)/.exec(manifest)?.[1]);
  if (version > migrations.length)
    throw new CalltapeError(
      'STORE_IO',
      `${folder}: exported by a newer calltape (schema ${version})`,
    );
  const stems = readdirSync(folder)
    .filter(
      (name) => name.endsWith('.yaml') && !name.endsWith('.timings.yaml') && name !== manifestName,
    )
    .sort();
  const db = openCassette(cassette, 'write');
  try {
    const insert = db.transaction(() => {
      // Sessions are derived from the interactions at the end; check references at commit.
      db.pragma('defer_foreign_keys = ON');
      for (const name of stems) {
        const stem = name.slice(0, -'.yaml'.length);
        let parsed: { row: InteractionRecord; toolCalls: ToolCallRecord[] };
        try {
          parsed = fromText(
            readFileSync(join(folder, name), 'utf8'),
            readFileSync(join(folder, `${stem}.timings.yaml`), 'utf8'),
          );
        } catch (error) {
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${join(folder, name)}: ${(error as Error).message}`,
          );
        }
        const id = parsed.row['id'];
        if (typeof id !== 'string' || !isSafeInteractionId(id))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${join(folder, name)}: id: ${JSON.stringify(String(id).slice(0, 80))} is not an interaction id (letters, digits, . _ -, up to 128)`,
          );
        insertRow(db, 'interactions', parsed.row);
        for (const call of parsed.toolCalls)
          insertRow(db, 'tool_calls', {
            ...call,
            interaction_id: parsed.row['id'] ?? null,
            session_id: parsed.row['session_id'] ?? null,
          });
      }
      db.exec(`INSERT INTO sessions (id, first_seen_at, last_seen_at, interaction_count)
               SELECT session_id, min(started_at), max(started_at), count(*) FROM interactions GROUP BY session_id`);
    });
    insert();
    return stems.length;
  } finally {
    closeAtRest(db);
  }
}

function insertRow(
  db: Database.Database,
  table: string,
  row: Record<string, string | number | Uint8Array | null>,
): void {
  const known = new Set(
    (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name),
  );
  const columns = Object.keys(row);
  const unknown = columns.find((column) => !known.has(column));
  if (unknown !== undefined) throw new Error(`unknown ${table} field "${unknown}"`);
  db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
  ).run(row);
}

/** Every interaction's text documents, in recording order. */
function interactionTexts(
  db: Database.Database,
): { id: string; text: ReturnType<typeof toText> }[] {
  return storedInteractions(db).map(({ row, toolCalls }) => ({
    id: String(row['id']),
    text: toText(row, toolCalls),
  }));
}

/** Every interaction's row (without `seq`) and tool calls, in recording order. */
function storedInteractions(db: Database.Database): StoredInteraction[] {
  const rows = db.prepare('SELECT * FROM interactions ORDER BY seq').all() as Record<
    string,
    string | number | Buffer | null
  >[];
  const callsOf = db.prepare(
    'SELECT * FROM tool_calls WHERE interaction_id = ? ORDER BY choice, position',
  );
  return rows.map((row) => {
    const { seq: _seq, ...record } = row;
    const toolCalls = (callsOf.all(row['id']) as Record<string, string | number | null>[]).map(
      ({ interaction_id: _interaction, session_id: _session, ...call }) => call,
    );
    return { row: record, toolCalls };
  });
}

/**
 * Fails (exit 2) unless the cassette file exists: commands that read or change one must never
 * create it. The hint names the nearest cassette (a typo is the usual cause) and, given
 * `recordWith`, the command that records it.
 */
export function requireCassette(cassette: string, recordWith?: string): void {
  if (!existsSync(cassette))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${cassette}: no such cassette`,
      missingCassetteHint(cassette, recordWith),
    );
}

function openReadOnly(cassette: string): Database.Database {
  requireCassette(cassette);
  return openCassette(cassette, 'read');
}

/**
 * The readable text of a whole cassette, for `show` and git textconv: the review text (ordered
 * by session and turn, what changes on every recording left out), or with `all` every column and
 * the timings document of each interaction, in the same order.
 */
export function cassetteText(cassette: string, options: { readonly all?: boolean } = {}): string {
  const db = openReadOnly(cassette);
  try {
    const interactions = storedInteractions(db);
    if (!options.all) return reviewText(interactions);
    return sortBySession(interactions, ({ row }) => String(row['session_id']))
      .map(({ row, toolCalls }) => {
        const text = toText(row, toolCalls);
        return `---\n${text.interaction}---\n${text.timings}`;
      })
      .join('');
  } finally {
    db.close();
  }
}

/** A cassette as `cassettes ls` lists it. */
export interface CassetteSummary {
  readonly name: string;
  readonly interactions: number;
  readonly sessions: number;
  readonly toolCalls: number;
  /** MCP requests recorded (`calltape mcp`); a cassette may hold only those. */
  readonly mcpExchanges: number;
  readonly lastRecordedAt: number | null;
}

/**
 * One line per cassette in a folder, and the `.sqlite` files that are not cassettes (the runs,
 * ratings or shadow databases kept beside them) with the reason each was skipped.
 */
export function listCassettes(folder: string): {
  cassettes: CassetteSummary[];
  skipped: { name: string; reason: string }[];
} {
  const cassettes: CassetteSummary[] = [];
  const skipped: { name: string; reason: string }[] = [];
  if (!existsSync(folder)) return { cassettes, skipped };
  for (const name of readdirSync(folder)
    .filter((file) => file.endsWith('.sqlite'))
    .sort()) {
    let db: Database.Database;
    try {
      db = openReadOnly(join(folder, name));
    } catch (error) {
      skipped.push({ name, reason: (error as Error).message });
      continue;
    }
    try {
      const tables = new Set(
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
      );
      if (!tables.has('interactions') || !tables.has('sessions') || !tables.has('tool_calls')) {
        skipped.push({ name, reason: 'not a cassette (no interactions table)' });
        continue;
      }
      const count = (sql: string): number => (db.prepare(sql).pluck().get() as number | null) ?? 0;
      const mcp = tables.has('mcp_exchanges');
      const last = (table: string): number | null =>
        db.prepare(`SELECT max(started_at) FROM ${table}`).pluck().get() as number | null;
      const lastRecorded = [last('interactions'), mcp ? last('mcp_exchanges') : null].filter(
        (at): at is number => at !== null,
      );
      cassettes.push({
        name: name.slice(0, -'.sqlite'.length),
        interactions: count('SELECT count(*) FROM interactions'),
        sessions: count('SELECT count(*) FROM sessions'),
        toolCalls: count('SELECT count(*) FROM tool_calls'),
        mcpExchanges: mcp ? count('SELECT count(*) FROM mcp_exchanges') : 0,
        lastRecordedAt: lastRecorded.length > 0 ? Math.max(...lastRecorded) : null,
      });
    } catch (error) {
      skipped.push({ name, reason: (error as Error).message });
    } finally {
      db.close();
    }
  }
  return { cassettes, skipped };
}
