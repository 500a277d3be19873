import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import { CalltapeError } from '../errors.js';

const schema = `
CREATE TABLE IF NOT EXISTS cassette_runs (
  id         INTEGER PRIMARY KEY,
  cassette   TEXT NOT NULL,
  mode       TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER NOT NULL,
  served     INTEGER NOT NULL,
  missed     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cassette_runs_by_cassette ON cassette_runs(cassette, id);
CREATE TABLE IF NOT EXISTS cassette_runs_served (
  run_id         INTEGER NOT NULL REFERENCES cassette_runs(id) ON DELETE CASCADE,
  interaction_id TEXT NOT NULL,
  PRIMARY KEY (run_id, interaction_id)
);
`;

/** The last noted run of a cassette: when it started and what it served. */
export interface LastCassetteRun {
  readonly mode: string;
  readonly startedAt: number;
  readonly servedIds: ReadonlySet<string>;
}

/**
 * Which proxy runs used which cassette, in the runs database (tables `cassette_runs` and
 * `cassette_runs_served`, documented in docs/reference/cassette-schema.md). Kept out of the
 * cassette so that replaying a committed cassette never changes it.
 */
export class CassetteUseStore {
  private readonly insertRun: Database.Statement<[string, string, number, number, number, number]>;
  private readonly insertServed: Database.Statement<[number | bigint, string]>;
  private readonly lastRun: Database.Statement<[string], { id: number; mode: string; started_at: number }>;
  private readonly servedOf: Database.Statement<[number], string>;

  private constructor(private readonly db: Database.Database) {
    this.insertRun = db.prepare('INSERT INTO cassette_runs (cassette, mode, started_at, ended_at, served, missed) VALUES (?, ?, ?, ?, ?, ?)');
    this.insertServed = db.prepare('INSERT OR IGNORE INTO cassette_runs_served (run_id, interaction_id) VALUES (?, ?)');
    this.lastRun = db.prepare("SELECT id, mode, started_at FROM cassette_runs WHERE cassette = ? AND mode != 'passthrough' ORDER BY id DESC LIMIT 1");
    this.servedOf = db.prepare<[number], string>('SELECT interaction_id FROM cassette_runs_served WHERE run_id = ?').pluck();
  }

  /** Opens (creating) the runs database for noting runs. */
  static forWriting(path: string): CassetteUseStore {
    try {
      mkdirSync(dirname(path), { recursive: true });
      const db = new Database(path);
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.exec(schema);
      return new CassetteUseStore(db);
    } catch (error) {
      throw new CalltapeError('STORE_IO', `${path}: cannot open the runs database: ${(error as Error).message}`, undefined, { cause: error });
    }
  }

  /** Opens the runs database to read; undefined when it does not exist (nothing was noted). */
  static forReading(path: string): CassetteUseStore | undefined {
    if (!existsSync(path)) return undefined;
    return CassetteUseStore.forWriting(path);
  }

  note(usages: readonly CassetteUsage[]): void {
    this.db.transaction(() => {
      for (const usage of usages) {
        const id = this.insertRun.run(usage.cassette, usage.mode, usage.startedAt, usage.endedAt, usage.servedIds.length, usage.missed).lastInsertRowid;
        for (const interaction of usage.servedIds) this.insertServed.run(id, interaction);
      }
    })();
  }

  /** The latest run noted for a cassette (by absolute path), other than passthrough. */
  last(cassette: string): LastCassetteRun | undefined {
    const row = this.lastRun.get(cassette);
    if (!row) return undefined;
    const ids = this.servedOf.all(row.id);
    return { mode: row.mode, startedAt: row.started_at, servedIds: new Set(ids) };
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Notes what a finished proxy run did with its cassettes in the runs database. A failure is
 * reported through `warn`, never thrown: the run itself succeeded, only `cassettes prune` will
 * not know about it.
 */
export function noteCassetteUse(runsDatabase: string, usages: readonly CassetteUsage[], warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`)): void {
  if (usages.length === 0) return;
  try {
    const store = CassetteUseStore.forWriting(runsDatabase);
    try {
      store.note(usages);
    } finally {
      store.close();
    }
  } catch (error) {
    warn(`calltape: could not note this run in ${runsDatabase} (cassettes prune will not know what it used): ${(error as Error).message}`);
  }
}
