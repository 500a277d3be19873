import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CalltapeError } from '../errors.js';
import type { SuiteRunResult } from './run-suite.js';

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
  report      TEXT NOT NULL
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
`;

/** The runs database: the flag, else CALLTAPE_RUNS_DB, else recordings/calltape-runs.sqlite (relative to the working folder). */
export function runsDatabaseFile(flag: string | undefined): string {
  // An empty variable counts as unset (CI templates often export empty values).
  return resolve(flag ?? (process.env['CALLTAPE_RUNS_DB'] || 'recordings/calltape-runs.sqlite'));
}

export interface StoredRun {
  readonly id: number;
  readonly suite: string;
  readonly mode: string;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly passed: boolean;
  readonly exit_code: number;
  readonly configs: readonly {
    readonly name: string;
    readonly model: string | null;
    readonly total: number;
    readonly passed: number;
    readonly pass_rate: number;
    readonly mean_score: number;
  }[];
}

/**
 * Every `calltape test` run, queryable: runs, their run configurations, case results (status,
 * score, latency, tokens, calls) and argument diffs, in one SQLite file beside the cassettes
 * (tables documented in docs/reference/cassette-schema.md). The whole JSON report is kept too, so any run can
 * be shown again exactly as it was.
 */
export class RunStore {
  private readonly db: Database.Database;

  constructor(
    readonly path: string,
    options: { readonly readonly?: boolean } = {},
  ) {
    try {
      if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path, {
        readonly: options.readonly === true,
        fileMustExist: options.readonly === true,
      });
      if (!options.readonly) {
        this.db.pragma('journal_mode = WAL');
        this.db.exec(schema);
      }
      this.db.pragma('foreign_keys = ON');
    } catch (error) {
      throw new CalltapeError(
        options.readonly ? 'CONFIG_INVALID' : 'STORE_IO',
        `${path}: cannot open the runs database: ${(error as Error).message}`,
        options.readonly
          ? 'Runs are stored by calltape test; run one first, or pass --runs-db.'
          : undefined,
      );
    }
  }

  /** Stores a run; returns its id. */
  save(result: SuiteRunResult, exitCode: number, report: string): number {
    const insert = this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare(
          'INSERT INTO runs (suite, file, mode, drive, cassette, started_at, duration_ms, passed, exit_code, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          result.suite,
          result.file,
          result.mode,
          result.drive,
          result.cassette,
          result.started_at,
          result.duration_ms,
          result.passed ? 1 : 0,
          exitCode,
          report,
        );
      const id = Number(lastInsertRowid);
      const config = this.db.prepare(
        'INSERT INTO run_configs (run_id, name, model, total, passed, failed, errors, pass_rate, mean_score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const run of result.runs)
        config.run(
          id,
          run.run,
          run.model,
          run.total,
          run.passed,
          run.failed,
          run.errors,
          run.pass_rate,
          run.mean_score,
        );
      const caseRow = this.db.prepare(
        'INSERT INTO case_results (run_id, config, test_id, position, status, score, tags, tools, duration_ms, turns, input_tokens, output_tokens, error, problems, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const diff = this.db.prepare(
        'INSERT INTO argument_diffs (run_id, config, test_id, path, expected, actual, reason, strategy) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const item of result.cases) {
        caseRow.run(
          id,
          item.run,
          item.test_id,
          item.index,
          item.status,
          item.score,
          JSON.stringify(item.tags),
          JSON.stringify(item.tools),
          item.duration_ms,
          item.turns,
          item.tokens.input,
          item.tokens.output,
          item.error,
          JSON.stringify(item.problems),
          JSON.stringify(item.calls),
        );
        for (const [path, mismatch] of Object.entries(item.call?.mismatches ?? {}))
          diff.run(
            id,
            item.run,
            item.test_id,
            path,
            json(mismatch.expected),
            json(mismatch.actual),
            mismatch.reason,
            mismatch.strategy,
          );
      }
      return id;
    });
    return insert();
  }

  list(limit = 50): StoredRun[] {
    const runs = this.db
      .prepare(
        'SELECT id, suite, mode, started_at, duration_ms, passed, exit_code FROM runs ORDER BY id DESC LIMIT ?',
      )
      .all(limit) as (Omit<StoredRun, 'configs' | 'passed'> & { passed: number })[];
    const configs = this.db.prepare(
      'SELECT name, model, total, passed, pass_rate, mean_score FROM run_configs WHERE run_id = ? ORDER BY rowid',
    );
    return runs.map((run) => ({
      ...run,
      passed: run.passed === 1,
      configs: configs.all(run.id) as StoredRun['configs'][number][],
    }));
  }

  /** The JSON report a run was stored with; undefined when there is no such run. */
  report(id: number): string | undefined {
    return (
      this.db.prepare('SELECT report FROM runs WHERE id = ?').get(id) as
        { report: string } | undefined
    )?.report;
  }

  /** Case results of one run configuration of a run, in suite order. */
  cases(
    id: number,
    config: string,
  ): { test_id: string; status: string; score: number; problems: string }[] {
    return this.db
      .prepare(
        'SELECT test_id, status, score, problems FROM case_results WHERE run_id = ? AND config = ? ORDER BY position',
      )
      .all(id, config) as { test_id: string; status: string; score: number; problems: string }[];
  }

  configs(id: number): string[] {
    return (
      this.db.prepare('SELECT name FROM run_configs WHERE run_id = ? ORDER BY rowid').all(id) as {
        name: string;
      }[]
    ).map((row) => row.name);
  }

  close(): void {
    this.db.close();
  }
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
