import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { readJsonFile } from '../config/read-json-file.js';
import { CalltapeError } from '../errors.js';
import { baselineOf } from '../report/json-report.js';
import { upgradeReport } from '../report/upgrade-report.js';
import type { BaselineSource } from '../report/run-baseline.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { behaviourDiff, type DiffedCase } from './behaviour-diff.js';
import { isPostgresUrl, printableDatabase } from '../database-url.js';
import { RunStore } from './run-store.js';

/** What a run is matched with its baseline by: the suite's name, cassette and run configurations. */
export interface BaselineTarget {
  readonly suite: string;
  readonly cassette: string;
  /** Run configurations by name (`run`, as a report's summaries name them) and model. */
  readonly runs: readonly { readonly run: string; readonly model?: string | null | undefined }[];
}

/** An earlier run to compare with: where it came from, its pass rates (max_regression) and its cases. */
export interface LoadedBaseline {
  readonly source: BaselineSource;
  readonly rates: ReadonlyMap<string, number>;
  /** Its case results; undefined for a report that has only pass rates. */
  readonly cases: readonly DiffedCase[] | undefined;
}

/** `--baseline branch:<name>`: a spelling no run id (digits) or sensible report path takes. */
const branchPrefix = 'branch:';

/**
 * The baseline a run compares itself with. `--baseline` names one: a run id in the runs
 * database, `branch:<name>` (the newest run of this suite and run configurations on that git
 * branch), or a JSON report file. Without it, the run that last recorded the suite's cassette
 * (record or auto), when the runs database has one; undefined when there is none.
 */
export function loadBaseline(
  flag: string | undefined,
  target: BaselineTarget,
  database: string,
): LoadedBaseline | undefined {
  if (flag === undefined) {
    if (!isPostgresUrl(database) && !existsSync(database)) return undefined;
    return withStore(database, (store) => {
      const id = store.lastRecording(target.suite, target.cassette);
      return id === undefined ? undefined : stored(store, id, 'recorded', `run #${id}`);
    });
  }
  if (/^\d+$/.test(flag))
    return withStore(database, (store) => stored(store, Number(flag), 'run', `run #${flag}`));
  if (flag.startsWith(branchPrefix)) {
    const branch = flag.slice(branchPrefix.length);
    if (!branch)
      throw new CalltapeError('CONFIG_INVALID', '--baseline branch:: name a branch (branch:main)');
    return withStore(database, (store) => {
      const wanted = configurationKey(target.runs);
      for (const id of store.runsOfBranch(target.suite, branch)) {
        const found = stored(store, id, 'branch', `branch ${branch} (run #${id})`);
        if (found.report && configurationKey(found.report.runs) === wanted) return found;
      }
      throw new CalltapeError(
        'CONFIG_INVALID',
        `--baseline ${flag}: no run of suite "${target.suite}" with run configurations ${wanted} on branch ${branch} in ${printableDatabase(database)}`,
        'Runs note their branch from the CI (GITHUB_HEAD_REF, GITHUB_REF_NAME, CI_COMMIT_REF_NAME, …) or git; store a run of this suite on that branch in this runs database first.',
      );
    });
  }
  const path = resolve(flag);
  const report = upgradeReport(readJsonFile(path, 'the baseline report'));
  const rates = baselineOf(report);
  if (!rates)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: not a calltape JSON report (no runs[].pass_rate)`,
    );
  const full = report as Partial<SuiteRunResult>;
  return {
    source: {
      kind: 'file',
      label: relative(process.cwd(), path) || path,
      run_id: null,
      started_at: typeof full.started_at === 'string' ? full.started_at : null,
      commit: full.git?.commit ?? null,
      branch: full.git?.branch ?? null,
    },
    rates,
    cases: Array.isArray(full.cases) ? full.cases : undefined,
  };
}

/** The run result with what changed since the baseline; unchanged when there is none to compare. */
export function compareWithBaseline(
  result: SuiteRunResult,
  baseline: LoadedBaseline | undefined,
): SuiteRunResult {
  if (!baseline?.cases) return result;
  return {
    ...result,
    baseline: { ...baseline.source, diff: behaviourDiff(baseline.cases, result.cases) },
  };
}

/** The suite's run configurations as a key: their names and models, in any order. */
function configurationKey(runs: BaselineTarget['runs']): string {
  return runs
    .map((run) => (run.model ? `${run.run} (${run.model})` : run.run))
    .sort()
    .join(', ');
}

function stored(
  store: RunStore,
  id: number,
  kind: BaselineSource['kind'],
  label: string,
): LoadedBaseline & { readonly report?: SuiteRunResult } {
  const text = store.report(id);
  if (text === undefined)
    throw new CalltapeError('CONFIG_INVALID', `--baseline: no run #${id} in ${store.location}`);
  const report = upgradeReport(JSON.parse(text)) as SuiteRunResult;
  const git = store.gitFacts(id);
  return {
    source: {
      kind,
      label,
      run_id: id,
      started_at: report.started_at,
      commit: git.commit,
      branch: git.branch,
    },
    rates: baselineOf(report) ?? new Map(),
    cases: report.cases,
    report,
  };
}

function withStore<T>(database: string, use: (store: RunStore) => T): T {
  const store = new RunStore(database, { readonly: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}
