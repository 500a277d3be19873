import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CalltapeError } from '../errors.js';
import type { Rating, RatingValue } from './rating.js';
import { preparePrivateDatabase } from '../private-files.js';

/** Bumped when the tables change; a newer file than this code knows is refused, not guessed at. */
const schemaVersion = 1;

const schema = `
CREATE TABLE IF NOT EXISTS ratings (
  set_name TEXT NOT NULL,
  run      TEXT NOT NULL,
  rating   TEXT NOT NULL CHECK (rating IN ('pass', 'fail')),
  note     TEXT,
  rater    TEXT,
  at       TEXT NOT NULL,
  PRIMARY KEY (set_name, run)
);
CREATE TABLE IF NOT EXISTS judge_comparisons (
  set_name    TEXT NOT NULL,
  judges_file TEXT NOT NULL,
  at          TEXT NOT NULL,
  report      TEXT NOT NULL,
  PRIMARY KEY (set_name, judges_file)
);
`;

/** The last comparison of a judges file with a set, as `calltape judges compare` stored it. */
export interface StoredComparison {
  /** When it ran, ISO 8601. */
  readonly at: string;
  /** The report `--json` writes (config/judges-report.schema.json). */
  readonly report: { readonly set: string; readonly judges_file: string } & Readonly<
    Record<string, unknown>
  >;
}

interface RatingRow {
  readonly run: string;
  readonly rating: RatingValue;
  readonly note: string | null;
  readonly rater: string | null;
  readonly at: string;
}

/** The ratings file: --ratings, else CALLTAPE_RATINGS, else recordings/calltape-ratings.sqlite. */
export function ratingsFile(flag: string | undefined, cwd: string): string {
  return resolve(
    cwd,
    flag ?? process.env['CALLTAPE_RATINGS'] ?? 'recordings/calltape-ratings.sqlite',
  );
}

/**
 * Ratings in SQLite, grouped in named sets. Each rating is committed the moment it is given
 * (one statement, autocommit), so a rater who quits, or whose terminal dies, loses nothing
 * already rated. Re-rating a run in a set replaces its rating. WAL lets the dashboard read
 * while the terminal rater writes.
 */
export class RatingStore {
  private readonly db: Database.Database;
  private readonly upsertStatement: Database.Statement;
  private readonly getStatement: Database.Statement;
  private readonly listStatement: Database.Statement;
  private readonly setsStatement: Database.Statement;
  private readonly deleteStatement: Database.Statement;
  private comparisonStatements:
    { readonly put: Database.Statement; readonly list: Database.Statement } | undefined;

  constructor(
    readonly path: string,
    options: { readonly readonly?: boolean } = {},
  ) {
    try {
      if (!options.readonly) preparePrivateDatabase(path);
      this.db = new Database(path, {
        readonly: options.readonly === true,
        fileMustExist: options.readonly === true,
      });
      this.db.pragma('busy_timeout = 5000');
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version > schemaVersion)
        throw new Error(
          `written by a newer calltape (schema ${version}; this one reads up to ${schemaVersion})`,
        );
      if (!options.readonly) {
        this.db.pragma('journal_mode = WAL');
        this.db.exec(schema);
        this.db.pragma(`user_version = ${schemaVersion}`);
      }
    } catch (error) {
      throw new CalltapeError(
        options.readonly ? 'CONFIG_INVALID' : 'STORE_IO',
        `${path}: cannot open the ratings database: ${(error as Error).message}`,
        options.readonly
          ? 'Ratings are written by calltape rate or calltape ratings import.'
          : undefined,
        { cause: error },
      );
    }
    this.upsertStatement = this.db.prepare(
      `INSERT INTO ratings (set_name, run, rating, note, rater, at) VALUES (@set, @run, @rating, @note, @rater, @at)
       ON CONFLICT (set_name, run) DO UPDATE SET rating = excluded.rating, note = excluded.note, rater = excluded.rater, at = excluded.at`,
    );
    this.getStatement = this.db.prepare(
      'SELECT run, rating, note, rater, at FROM ratings WHERE set_name = ? AND run = ?',
    );
    this.listStatement = this.db.prepare(
      'SELECT run, rating, note, rater, at FROM ratings WHERE set_name = ? ORDER BY run',
    );
    this.setsStatement = this.db
      .prepare('SELECT DISTINCT set_name FROM ratings ORDER BY set_name')
      .pluck();
    this.deleteStatement = this.db.prepare('DELETE FROM ratings WHERE set_name = ? AND run = ?');
  }

  /** Stores (or replaces) a rating in a set, committed before this returns. */
  put(set: string, rating: Rating): void {
    this.upsertStatement.run({
      set,
      run: rating.run,
      rating: rating.rating,
      note: rating.note ?? null,
      rater: rating.rater ?? null,
      at: rating.at,
    });
  }

  /** Several ratings in one transaction: all or none (an import). */
  putAll(set: string, ratings: readonly Rating[]): void {
    this.db.transaction(() => {
      for (const rating of ratings) this.put(set, rating);
    })();
  }

  get(set: string, run: string): Rating | undefined {
    const row = this.getStatement.get(set, run) as RatingRow | undefined;
    return row && fromRow(row);
  }

  /** A set's ratings, ordered by run. */
  list(set: string): Rating[] {
    return (this.listStatement.all(set) as RatingRow[]).map(fromRow);
  }

  /** The names of every set that holds a rating. */
  sets(): string[] {
    return this.setsStatement.all() as string[];
  }

  /** Takes a rating back (the rater's "back" key re-asks it). */
  remove(set: string, run: string): void {
    this.deleteStatement.run(set, run);
  }

  /**
   * Keeps a judges comparison, replacing the last one of the same judges file and set, for the
   * app's judges section. A table added beside the ratings: older calltapes read the file as before.
   */
  putComparison(comparison: StoredComparison): void {
    this.comparisons().put.run(
      comparison.report.set,
      comparison.report.judges_file,
      comparison.at,
      JSON.stringify(comparison.report),
    );
  }

  /** The stored comparisons, newest first; none in a file written before they were kept. */
  listComparisons(): StoredComparison[] {
    const exists = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'judge_comparisons'")
      .get();
    if (exists === undefined) return [];
    return (this.comparisons().list.all() as { at: string; report: string }[]).map((row) => ({
      at: row.at,
      report: JSON.parse(row.report) as StoredComparison['report'],
    }));
  }

  close(): void {
    this.db.close();
  }

  /** Prepared at first use: a file written before comparisons were kept has no table to prepare against. */
  private comparisons(): { readonly put: Database.Statement; readonly list: Database.Statement } {
    this.comparisonStatements ??= {
      put: this.db.prepare(
        `INSERT INTO judge_comparisons (set_name, judges_file, at, report) VALUES (?, ?, ?, ?)
         ON CONFLICT (set_name, judges_file) DO UPDATE SET at = excluded.at, report = excluded.report`,
      ),
      list: this.db.prepare('SELECT at, report FROM judge_comparisons ORDER BY at DESC, set_name'),
    };
    return this.comparisonStatements;
  }
}

function fromRow(row: RatingRow): Rating {
  return {
    run: row.run,
    rating: row.rating,
    ...(row.note !== null ? { note: row.note } : {}),
    ...(row.rater !== null ? { rater: row.rater } : {}),
    at: row.at,
  };
}
