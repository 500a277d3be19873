import { existsSync } from 'node:fs';
import { isPostgresUrl } from '../database-url.js';
import { runsGitIndex } from '../stores/runs-database.js';
import { openRunsSql } from '../stores/open-runs-database.js';
import { insertOrder, type SqlDatabase } from '../stores/sql-database.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { upgradeReport } from '../report/upgrade-report.js';
import type { RunConfigurationListing, RunListing } from './api-types.js';

/** Which runs the runs list shows: each filter is an exact value, absent for all. */
export interface RunsFilter {
  readonly suite?: string | undefined;
  readonly config?: string | undefined;
  readonly branch?: string | undefined;
  /** At most this many runs, newest first. */
  readonly limit: number;
}

/**
 * The runs database as calltape view reads it: read-only (a view never migrates or locks a file
 * a test run is writing; WAL lets it read beside that writer). A file written before a column
 * was added reads that column as unknown.
 */
export class ViewRunsReader {
  private readonly db: SqlDatabase;
  private readonly gitColumns: string;
  /** The condition on a run's branch (`?`), read through the git index when there. */
  private readonly branchIs: string;
  /** Where the branches are read from: the git index when there, else the table. */
  private readonly gitSource: string;
  private readonly unreliableColumn: string;

  constructor(readonly path: string) {
    this.db = openRunsSql(path, { readonly: true });
    // The covering index exists only in SQLite files (PostgreSQL plans git reads itself); a
    // SQLite file stored before the index (and not written since) is read the slow way.
    const indexed =
      this.db.dialect === 'sqlite' &&
      this.db.get("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [
        runsGitIndex,
      ]) !== undefined;
    const git = (column: string): string =>
      `(SELECT g.${column} FROM runs AS g INDEXED BY ${runsGitIndex} WHERE g.id = runs.id) AS ${column}`;
    this.gitColumns = !this.db.hasColumn('runs', 'git_commit')
      ? 'NULL AS git_commit, NULL AS git_branch'
      : indexed
        ? `${git('git_commit')}, ${git('git_branch')}`
        : 'git_commit, git_branch';
    this.branchIs = indexed
      ? `id IN (SELECT id FROM runs INDEXED BY ${runsGitIndex} WHERE git_branch = ?)`
      : 'git_branch = ?';
    this.gitSource = indexed ? `runs INDEXED BY ${runsGitIndex}` : 'runs';
    this.unreliableColumn = this.db.hasColumn('run_configs', 'unreliable')
      ? 'unreliable'
      : '0 AS unreliable';
  }

  /** Whether the file is there to read (a view may start before the first run is stored); a PostgreSQL database always is. */
  static present(path: string): boolean {
    return isPostgresUrl(path) || existsSync(path);
  }

  /** Where the runs are, safe to print (a URL's password redacted). */
  get location(): string {
    return this.db.location;
  }

  /** The runs matching a filter, newest first, each with its run configurations, and how many matched. */
  runs(filter: RunsFilter): { runs: RunListing[]; matched: number } {
    const conditions: string[] = [];
    const parameters: (string | number)[] = [];
    if (filter.suite !== undefined) {
      conditions.push('suite = ?');
      parameters.push(filter.suite);
    }
    if (filter.branch !== undefined && !this.gitColumns.startsWith('NULL')) {
      conditions.push(this.branchIs);
      parameters.push(filter.branch);
    } else if (filter.branch !== undefined) conditions.push('1 = 0');
    if (filter.config !== undefined) {
      conditions.push(
        'EXISTS (SELECT 1 FROM run_configs c WHERE c.run_id = runs.id AND c.name = ?)',
      );
      parameters.push(filter.config);
    }
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const matched =
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM runs ${where}`, parameters)?.n ?? 0;
    const rows = this.db.all<Omit<RunListing, 'passed' | 'configs'> & { passed: number }>(
      `SELECT id, suite, mode, drive, started_at, duration_ms, passed, exit_code, ${this.gitColumns} FROM runs ${where} ORDER BY id DESC LIMIT ?`,
      [...parameters, filter.limit],
    );
    const configs = this.configsOf(rows.map((row) => row.id));
    return {
      matched,
      runs: rows.map((row) => ({
        ...row,
        passed: row.passed === 1,
        configs: configs.get(row.id) ?? [],
      })),
    };
  }

  /** One run as the list shows it; undefined when there is no such run. */
  run(id: number): RunListing | undefined {
    const row = this.db.get<Omit<RunListing, 'passed' | 'configs'> & { passed: number }>(
      `SELECT id, suite, mode, drive, started_at, duration_ms, passed, exit_code, ${this.gitColumns} FROM runs WHERE id = ?`,
      [id],
    );
    if (row === undefined) return undefined;
    return { ...row, passed: row.passed === 1, configs: this.configsOf([id]).get(id) ?? [] };
  }

  /** The JSON report a run was stored with, parsed; undefined when there is no such run. */
  report(id: number): SuiteRunResult | undefined {
    const row = this.db.get<{ report: string }>('SELECT report FROM runs WHERE id = ?', [id]);
    // Reports stored before a rename are read under today's names.
    return row === undefined
      ? undefined
      : (upgradeReport(JSON.parse(row.report)) as SuiteRunResult);
  }

  /** A run's cassette path from the runs database's folder; null when not kept (older runs). */
  cassetteKey(id: number): string | null {
    if (this.gitColumns.startsWith('NULL')) return null;
    const row = this.db.get<{ cassette_key: string | null }>(
      'SELECT cassette_key FROM runs WHERE id = ?',
      [id],
    );
    return row?.cassette_key ?? null;
  }

  /** Every suite, run configuration and branch stored (for the filters). */
  filterValues(): { suites: string[]; configs: string[]; branches: string[] } {
    const column = (sql: string): string[] =>
      this.db.all<{ value: string }>(sql).map((row) => row.value);
    return {
      suites: column('SELECT DISTINCT suite AS value FROM runs ORDER BY suite'),
      configs: column('SELECT DISTINCT name AS value FROM run_configs ORDER BY name'),
      branches: !this.gitColumns.startsWith('NULL')
        ? column(
            `SELECT DISTINCT git_branch AS value FROM ${this.gitSource} WHERE git_branch IS NOT NULL ORDER BY git_branch`,
          )
        : [],
    };
  }

  close(): void {
    this.db.close();
  }

  /** The run configurations of some runs, in stored order, by run id (one query for the lot). */
  private configsOf(ids: readonly number[]): Map<number, RunConfigurationListing[]> {
    const byRun = new Map<number, RunConfigurationListing[]>();
    if (ids.length === 0) return byRun;
    const wanted = new Set(ids);
    const rows = this.db.all<RunConfigurationListing & { run_id: number }>(
      `SELECT run_id, name, model, total, passed, failed, errors, ${this.unreliableColumn}, pass_rate, mean_score FROM run_configs WHERE run_id BETWEEN ? AND ? ORDER BY run_id, ${insertOrder(this.db)}`,
      [Math.min(...ids), Math.max(...ids)],
    );
    for (const { run_id, ...config } of rows) {
      if (!wanted.has(run_id)) continue;
      const list = byRun.get(run_id);
      if (list) list.push(config);
      else byRun.set(run_id, [config]);
    }
    return byRun;
  }
}
