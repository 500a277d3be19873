import { dirname, join, relative, resolve, sep } from 'node:path';
import { isPostgresUrl } from '../database-url.js';
import { openRunsSql } from '../stores/open-runs-database.js';
import { insertOrder, type SqlDatabase } from '../stores/sql-database.js';
import type { SuiteRunResult } from './run-suite.js';

/** The runs database: the flag, else CALLTAPE_RUNS_DB, else recordings/calltape-runs.sqlite (relative to the working folder). */
export function runsDatabaseFile(flag: string | undefined): string {
  return resolveDatabase(chosenRunsDatabase(flag) ?? 'recordings/calltape-runs.sqlite');
}

/** A database location made absolute: a file from the working folder; a `postgres://` URL as it is. */
export function resolveDatabase(location: string): string {
  return isPostgresUrl(location) ? location : resolve(location);
}

/** The runs database the user chose: the flag, else CALLTAPE_RUNS_DB; undefined for neither. */
export function chosenRunsDatabase(flag: string | undefined): string | undefined {
  // An empty variable counts as unset (CI templates often export empty values).
  return flag ?? (process.env['CALLTAPE_RUNS_DB'] || undefined);
}

/**
 * Where a cassette's runs are noted unless the user chose a runs database: the one beside the
 * cassette. The notes then travel with the cassette, `cassettes prune` finds them from any
 * folder, and a cassette used from elsewhere never makes a recordings/ folder in the working
 * directory. A bare cassette name lives in recordings/, so its runs database is the usual one.
 */
export function runsDatabaseBeside(cassette: string): string {
  return join(dirname(resolve(cassette)), 'calltape-runs.sqlite');
}

/**
 * Where `calltape test`, `score` and `merge-reports` store a run of a suite and look for its
 * baseline: the runs database the user chose, else the one beside the suite's cassette (for the
 * usual layout, recordings/calltape-runs.sqlite), so a suite run from another folder creates
 * nothing in the working directory.
 */
export function suiteRunsDatabase(flag: string | undefined, cassette: string): string {
  return resolveDatabase(chosenRunsDatabase(flag) ?? runsDatabaseBeside(cassette));
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
    /** Cases whose expected tool was not offered (in no pass rate). */
    readonly unreliable: number;
  }[];
}

/**
 * Every `calltape test` run, queryable: runs, their run configurations, case results (status,
 * score, latency, tokens, calls) and argument diffs, in one SQLite file beside the cassettes, or
 * in a PostgreSQL database many CI runners share (`postgres://…`; tables documented in
 * docs/reference/cassette-schema.md). The whole JSON report is kept too, so any run can be shown
 * again exactly as it was.
 */
export class RunStore {
  private readonly db: SqlDatabase;
  /** False for a database written before the column, opened read-only (so not migrated). */
  private readonly hasUnreliable: boolean;
  /** False for a database written before runs kept their git facts and cassette key, opened read-only. */
  private readonly hasGitFacts: boolean;
  private readonly hasCaseResults: boolean;

  constructor(
    /** The file, or the `postgres://` URL (print `location`, never this). */
    readonly path: string,
    options: { readonly readonly?: boolean } = {},
  ) {
    this.db = openRunsSql(path, options);
    this.hasUnreliable = this.db.hasColumn('run_configs', 'unreliable');
    this.hasGitFacts = this.db.hasColumn('runs', 'cassette_key');
    this.hasCaseResults = this.db.hasColumn('case_results', 'status');
  }

  /** Where the runs are, safe to print (a URL's password redacted). */
  get location(): string {
    return this.db.location;
  }

  /** Stores a run; returns its id. */
  save(result: SuiteRunResult, exitCode: number, report: string): number {
    return this.db.transaction(() => {
      const id = this.db.insert(
        'INSERT INTO runs (suite, file, mode, drive, cassette, started_at, duration_ms, passed, exit_code, report, git_commit, git_branch, cassette_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
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
          result.git?.commit ?? null,
          result.git?.branch ?? null,
          this.cassetteKey(result.cassette),
        ],
      );
      for (const run of result.runs)
        this.db.run(
          'INSERT INTO run_configs (run_id, name, model, total, passed, failed, errors, pass_rate, mean_score, unreliable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            id,
            run.run,
            run.model,
            run.total,
            run.passed,
            run.failed,
            run.errors,
            run.pass_rate,
            run.mean_score,
            run.unreliable ?? 0,
          ],
        );
      for (const item of result.cases) {
        for (const sample of item.samples?.results ?? [])
          this.db.run(
            'INSERT INTO case_samples (run_id, config, test_id, sample, session, status, score, duration_ms, error, problems, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [
              id,
              item.run,
              item.test_id,
              sample.sample,
              sample.session,
              sample.status,
              sample.score,
              Math.round(sample.duration_ms),
              sample.error,
              JSON.stringify(sample.problems),
              JSON.stringify(sample.calls),
            ],
          );
        this.db.run(
          'INSERT INTO case_results (run_id, config, test_id, position, status, score, tags, tools, duration_ms, turns, input_tokens, output_tokens, error, problems, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            id,
            item.run,
            item.test_id,
            item.index,
            item.status,
            item.score,
            JSON.stringify(item.tags),
            JSON.stringify(item.tools),
            Math.round(item.duration_ms),
            item.rounds,
            item.tokens.input,
            item.tokens.output,
            item.error,
            JSON.stringify(item.problems),
            JSON.stringify(item.calls),
          ],
        );
        for (const [path, mismatch] of Object.entries(item.call?.mismatches ?? {}))
          this.db.run(
            'INSERT INTO argument_diffs (run_id, config, test_id, path, expected, actual, reason, strategy) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            [
              id,
              item.run,
              item.test_id,
              path,
              json(mismatch.expected),
              json(mismatch.actual),
              mismatch.reason,
              mismatch.strategy,
            ],
          );
      }
      return id;
    });
  }

  list(limit = 50): StoredRun[] {
    const runs = this.db.all<Omit<StoredRun, 'configs' | 'passed'> & { passed: number }>(
      'SELECT id, suite, mode, started_at, duration_ms, passed, exit_code FROM runs ORDER BY id DESC LIMIT ?',
      [limit],
    );
    // An older database read-only: the count comes from the case results, as the migration would fill it.
    const unreliable = this.hasUnreliable
      ? 'unreliable'
      : "(SELECT count(*) FROM case_results c WHERE c.run_id = run_configs.run_id AND c.config = run_configs.name AND c.status = 'unreliable') AS unreliable";
    const configs = `SELECT name, model, total, passed, pass_rate, mean_score, ${unreliable} FROM run_configs WHERE run_id = ? ORDER BY ${insertOrder(this.db)}`;
    return runs.map((run) => ({
      ...run,
      passed: run.passed === 1,
      configs: this.db.all<StoredRun['configs'][number]>(configs, [run.id]),
    }));
  }

  /** The JSON report a run was stored with; undefined when there is no such run. */
  report(id: number): string | undefined {
    return this.db.get<{ report: string }>('SELECT report FROM runs WHERE id = ?', [id])?.report;
  }

  /** Case results of one run configuration of a run, in suite order. */
  cases(
    id: number,
    config: string,
  ): { test_id: string; status: string; score: number; problems: string }[] {
    return this.db.all(
      'SELECT test_id, status, score, problems FROM case_results WHERE run_id = ? AND config = ? ORDER BY position',
      [id, config],
    );
  }

  configs(id: number): string[] {
    return this.db
      .all<{
        name: string;
      }>(`SELECT name FROM run_configs WHERE run_id = ? ORDER BY ${insertOrder(this.db)}`, [id])
      .map((row) => row.name);
  }

  /**
   * The latest run of a suite that recorded (record or auto) its cassette. The cassette is found
   * by its path from the runs database's folder, so a project checked out elsewhere (another
   * machine, CI) still finds it; runs stored before that key was kept match by absolute path.
   */
  lastRecording(suite: string, cassette: string): number | undefined {
    const [condition, parameters] = this.hasGitFacts
      ? [
          '(cassette_key = ? OR (cassette_key IS NULL AND cassette = ?))',
          [this.cassetteKey(cassette), cassette],
        ]
      : ['cassette = ?', [cassette]];
    return this.db.get<{ id: number }>(
      `SELECT id FROM runs WHERE suite = ? AND mode IN ('record', 'auto') AND ${condition}${
        // A run whose every case errored recorded nothing (no key, the upstream down): not a baseline.
        this.hasCaseResults
          ? " AND EXISTS (SELECT 1 FROM case_results c WHERE c.run_id = runs.id AND c.status != 'error')"
          : ''
      } ORDER BY id DESC LIMIT 1`,
      [suite, ...parameters],
    )?.id;
  }

  /** Ids of a suite's runs on a git branch, newest first (the caller picks the one whose run configurations match). */
  runsOfBranch(suite: string, branch: string, limit = 200): number[] {
    if (!this.hasGitFacts) return [];
    return this.db
      .all<{ id: number }>(
        'SELECT id FROM runs WHERE suite = ? AND git_branch = ? ORDER BY id DESC LIMIT ?',
        [suite, branch, limit],
      )
      .map((row) => row.id);
  }

  /** A run's git commit and branch (null when not known, or stored before they were kept). */
  gitFacts(id: number): { commit: string | null; branch: string | null } {
    if (!this.hasGitFacts) return { commit: null, branch: null };
    const row = this.db.get<{ git_commit: string | null; git_branch: string | null }>(
      'SELECT git_commit, git_branch FROM runs WHERE id = ?',
      [id],
    );
    return { commit: row?.git_commit ?? null, branch: row?.git_branch ?? null };
  }

  close(): void {
    this.db.close();
  }

  /**
   * The cassette's path with `/` on every platform: from the runs database's folder for a file,
   * from the working folder for a shared PostgreSQL database (CI runs from the project's root,
   * wherever the runner checked it out).
   */
  private cassetteKey(cassette: string): string {
    const base = isPostgresUrl(this.path) ? process.cwd() : dirname(this.path);
    return relative(base, resolve(cassette)).split(sep).join('/');
  }
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
