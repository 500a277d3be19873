import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import { CalltapeError } from '../errors.js';
import { isPostgresUrl } from '../database-url.js';
import { runsDatabaseBeside } from './run-store.js';
import { openRunsDatabase } from '../stores/runs-database.js';

/** The last noted run of a cassette: when it started and what it served (every shard's, for a sharded run). */
export interface LastCassetteRun {
  readonly mode: string;
  readonly startedAt: number;
  readonly servedIds: ReadonlySet<string>;
  /** Requests it found no recording for (every shard's). */
  readonly missed: number;
  /** Cases that ended in ERROR, or 1 for a wrapped command that exited non-zero (every shard's); undefined when not noted. */
  readonly errors: number | undefined;
  /** A sharded run: how many shards it had. */
  readonly shards?: number;
}

interface RunRow {
  readonly id: number;
  readonly mode: string;
  readonly started_at: number;
  readonly shard_index: number | null;
  readonly shard_count: number | null;
  readonly missed: number;
  readonly errors: number | null;
}

/**
 * Which proxy runs used which cassette, in the runs database (tables `cassette_runs` and
 * `cassette_runs_served`, documented in docs/reference/cassette-schema.md). Kept out of the
 * cassette so that replaying a committed cassette never changes it.
 */
export class CassetteUseStore {
  private readonly insertRun: Database.Statement<
    [string, string, number, number, number, number, number | null, number | null, number | null]
  >;
  private readonly insertServed: Database.Statement<[number | bigint, string]>;
  private readonly lastRun: Database.Statement<[string], RunRow>;
  private readonly lastOfShard: Database.Statement<[string, number, number], RunRow>;
  private readonly servedOf: Database.Statement<[number], string>;

  private constructor(private readonly db: Database.Database) {
    this.insertRun = db.prepare(
      'INSERT INTO cassette_runs (cassette, mode, started_at, ended_at, served, missed, shard_index, shard_count, errors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertServed = db.prepare(
      'INSERT OR IGNORE INTO cassette_runs_served (run_id, interaction_id) VALUES (?, ?)',
    );
    this.lastRun = db.prepare(
      "SELECT id, mode, started_at, shard_index, shard_count, missed, errors FROM cassette_runs WHERE cassette = ? AND mode != 'passthrough' ORDER BY id DESC LIMIT 1",
    );
    this.lastOfShard = db.prepare(
      "SELECT id, mode, started_at, shard_index, shard_count, missed, errors FROM cassette_runs WHERE cassette = ? AND shard_count = ? AND shard_index = ? AND mode != 'passthrough' ORDER BY id DESC LIMIT 1",
    );
    this.servedOf = db
      .prepare<[number], string>('SELECT interaction_id FROM cassette_runs_served WHERE run_id = ?')
      .pluck();
  }

  /** Opens (creating) the runs database for noting runs. */
  static forWriting(path: string): CassetteUseStore {
    try {
      return new CassetteUseStore(openRunsDatabase(path));
    } catch (error) {
      throw new CalltapeError(
        'STORE_IO',
        `${path}: cannot open the runs database: ${(error as Error).message}`,
        undefined,
        { cause: error },
      );
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
        const id = this.insertRun.run(
          usage.cassette,
          usage.mode,
          usage.startedAt,
          usage.endedAt,
          usage.servedIds.length,
          usage.missed,
          usage.shard?.index ?? null,
          usage.shard?.count ?? null,
          usage.errors ?? null,
        ).lastInsertRowid;
        for (const interaction of usage.servedIds) this.insertServed.run(id, interaction);
      }
    })();
  }

  /**
   * The latest run noted for a cassette (by absolute path), other than passthrough. When it was
   * one shard of a sharded `calltape test`, the latest run of every shard of that split together:
   * what any shard served, since the earliest of them started. A shard never noted is an error,
   * since pruning without it would delete what it replays.
   */
  last(cassette: string): LastCassetteRun | undefined {
    const row = this.lastRun.get(cassette);
    if (!row) return undefined;
    if (row.shard_count === null || row.shard_count <= 1)
      return {
        mode: row.mode,
        startedAt: row.started_at,
        servedIds: new Set(this.servedOf.all(row.id)),
        missed: row.missed,
        errors: row.errors ?? undefined,
      };
    const count = row.shard_count;
    const shards = Array.from({ length: count }, (_, at) =>
      this.lastOfShard.get(cassette, count, at + 1),
    );
    const missing = shards.flatMap((shard, at) => (shard ? [] : [`${at + 1}/${count}`]));
    if (missing.length > 0)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${cassette}: the last run was sharded, but no run of shard ${missing.join(', ')} is noted in this runs database; prune keeps what every shard used, so it needs them all`,
        'Run every shard with the same --runs-db (or merge their databases), or run the suite unsharded once.',
      );
    const present = shards.filter((shard): shard is RunRow => shard !== undefined);
    return {
      mode: row.mode,
      startedAt: Math.min(...present.map((shard) => shard.started_at)),
      servedIds: new Set(present.flatMap((shard) => this.servedOf.all(shard.id))),
      missed: present.reduce((sum, shard) => sum + shard.missed, 0),
      errors: present.some((shard) => shard.errors !== null)
        ? present.reduce((sum, shard) => sum + (shard.errors ?? 0), 0)
        : undefined,
      shards: count,
    };
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Notes what a finished proxy run did with its cassettes in `runsDatabase`, or, when the user
 * chose none (undefined), in the runs database beside each cassette. A failure is
 * reported through `warn`, never thrown: the run itself succeeded, only `cassettes prune` will
 * not know about it.
 */
export function noteCassetteUse(
  runsDatabase: string | undefined,
  usages: readonly CassetteUsage[],
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): void {
  const byDatabase = new Map<string, CassetteUsage[]>();
  for (const usage of usages) {
    // Which cassettes a run used is the cassette's own business: a shared PostgreSQL runs database keeps runs, not these notes.
    const database =
      runsDatabase !== undefined && !isPostgresUrl(runsDatabase)
        ? runsDatabase
        : runsDatabaseBeside(usage.cassette);
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), usage]);
  }
  for (const [database, noted] of byDatabase)
    try {
      const store = CassetteUseStore.forWriting(database);
      try {
        store.note(noted);
      } finally {
        store.close();
      }
    } catch (error) {
      warn(
        `calltape: could not note this run in ${database} (cassettes prune will not know what it used): ${(error as Error).message}`,
      );
    }
}
