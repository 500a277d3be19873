import Database from 'better-sqlite3';
import { preparePrivateDatabase } from '../private-files.js';

/**
 * The tables of the runs database (`recordings/calltape-runs.sqlite`): stored test runs
 * (RunStore) and which proxy runs used which cassette (CassetteUseStore). Documented in
 * docs/reference/cassette-schema.md.
 */
const schema = `
CREATE TABLE IF NOT EXISTS runs (
  id          INTEGER PRIMARY KEY,
  suite       TEXT NOT NULL,
  file        TEXT NOT NULL,
  mode        TEXT NOT NULL,
  drive       TEXT NOT NULL,
  cassette    TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  passed      INTEGER NOT NULL,
  exit_code   INTEGER NOT NULL,
  report      TEXT NOT NULL,
  git_commit   TEXT,
  git_branch   TEXT,
  cassette_key TEXT
);
CREATE TABLE IF NOT EXISTS run_configs (
  run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  model      TEXT,
  total      INTEGER NOT NULL,
  passed     INTEGER NOT NULL,
  failed     INTEGER NOT NULL,
  errors     INTEGER NOT NULL,
  pass_rate  REAL NOT NULL,
  mean_score REAL NOT NULL,
  unreliable INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, name)
);
CREATE TABLE IF NOT EXISTS case_results (
  run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  config        TEXT NOT NULL,
  test_id       TEXT NOT NULL,
  position      INTEGER NOT NULL,
  status        TEXT NOT NULL,
  score         REAL NOT NULL,
  tags          TEXT NOT NULL,
  tools         TEXT NOT NULL,
  duration_ms   INTEGER NOT NULL,
  turns         INTEGER NOT NULL,
  input_tokens  INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  error         TEXT,
  problems      TEXT NOT NULL,
  calls         TEXT NOT NULL,
  PRIMARY KEY (run_id, config, test_id)
);
CREATE TABLE IF NOT EXISTS case_samples (
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  config       TEXT NOT NULL,
  test_id      TEXT NOT NULL,
  sample       INTEGER NOT NULL,
  session      TEXT NOT NULL,
  status       TEXT NOT NULL,
  score        REAL NOT NULL,
  duration_ms  INTEGER NOT NULL,
  error        TEXT,
  problems     TEXT NOT NULL,
  calls        TEXT NOT NULL,
  PRIMARY KEY (run_id, config, test_id, sample)
);
CREATE TABLE IF NOT EXISTS argument_diffs (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  config   TEXT NOT NULL,
  test_id  TEXT NOT NULL,
  path     TEXT NOT NULL,
  expected TEXT,
  actual   TEXT,
  reason   TEXT NOT NULL,
  strategy TEXT NOT NULL,
  PRIMARY KEY (run_id, config, test_id, path)
);

CREATE TABLE IF NOT EXISTS cassette_runs (
  id         INTEGER PRIMARY KEY,
  cassette   TEXT NOT NULL,
  mode       TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER NOT NULL,
  served     INTEGER NOT NULL,
  missed     INTEGER NOT NULL,
  shard_index INTEGER,
  shard_count INTEGER,
  errors      INTEGER
);
CREATE INDEX IF NOT EXISTS cassette_runs_by_cassette ON cassette_runs(cassette, id);
CREATE TABLE IF NOT EXISTS cassette_runs_served (
  run_id         INTEGER NOT NULL REFERENCES cassette_runs(id) ON DELETE CASCADE,
  interaction_id TEXT NOT NULL,
  PRIMARY KEY (run_id, interaction_id)
);
`;

/**
 * Columns added after a table first shipped, each with how to fill it in rows stored before.
 * `CREATE TABLE IF NOT EXISTS` leaves an old table as it was, so these are added by name.
 */
const addedColumns: readonly {
  readonly table: string;
  readonly column: string;
  readonly definition: string;
  readonly backfill?: string;
}[] = [
  { table: 'cassette_runs', column: 'shard_index', definition: 'INTEGER' },
  // Runs stored before these were kept have no commit or branch, and are keyed by the absolute cassette path.
  { table: 'runs', column: 'git_commit', definition: 'TEXT' },
  { table: 'runs', column: 'git_branch', definition: 'TEXT' },
  { table: 'runs', column: 'cassette_key', definition: 'TEXT' },
  { table: 'cassette_runs', column: 'shard_count', definition: 'INTEGER' },
  // Runs noted before it are of unknown outcome (NULL): prune decides from them as it did.
  { table: 'cassette_runs', column: 'errors', definition: 'INTEGER' },
  {
    table: 'run_configs',
    column: 'unreliable',
    definition: 'INTEGER NOT NULL DEFAULT 0',
    // The case results kept every status, so a run stored before the column counts its own.
    backfill: `UPDATE run_configs SET unreliable = (SELECT count(*) FROM case_results c
      WHERE c.run_id = run_configs.run_id AND c.config = run_configs.name AND c.status = 'unreliable')`,
  },
];

/**
 * The runs' git columns came after `report` (a whole JSON report, often hundreds of KB): a row's
 * later columns sit behind its overflow pages, so listing 200 runs with their branch read ~15,000
 * pages (1,000 runs × 300 cases: 240 ms, and 830 ms for the branches). This covering index
 * answers them from a few pages; calltape view reads it when there (`INDEXED BY runs_git`).
 * Created after the columns are added, since an older file gains them here.
 */
export const runsGitIndex = 'runs_git';
const indexes = `CREATE INDEX IF NOT EXISTS ${runsGitIndex} ON runs(id, git_branch, git_commit);`;

/** Whether a table of an open database has a column (a read-only opening of an older file may lack it). */
export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some(
    (entry) => entry.name === column,
  );
}

/**
 * Opens the runs database to write, creating it and bringing every table up to date in one
 * transaction: the one place its schema is set up, whichever store opens it first.
 */
export function openRunsDatabase(path: string): Database.Database {
  preparePrivateDatabase(path);
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.transaction(() => {
      db.exec(schema);
      for (const added of addedColumns) {
        if (hasColumn(db, added.table, added.column)) continue;
        db.exec(`ALTER TABLE ${added.table} ADD COLUMN ${added.column} ${added.definition}`);
        if (added.backfill) db.exec(added.backfill);
      }
      db.exec(indexes);
    })();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
