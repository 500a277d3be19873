import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { compareWithBaseline, loadBaseline } from './load-baseline.js';
import { RunStore } from './run-store.js';

function run(
  cassette: string,
  extra: Partial<SuiteRunResult> & { readonly model?: string } = {},
): SuiteRunResult {
  const { model = 'm', ...rest } = extra;
  return {
    suite: 'weather',
    file: 'weather.json',
    mode: 'record',
    drive: 'direct',
    cassette,
    started_at: '2026-12-03T12:00:00.000Z',
    duration_ms: 1,
    runs: [
      {
        run: 'default',
        model,
        total: 1,
        passed: 1,
        failed: 0,
        errors: 0,
        pass_rate: 1,
        mean_score: 1,
      },
    ],
    cases: [caseResult('a')],
    gates: [],
    passed: true,
    ...rest,
  };
}

function store(path: string, results: readonly SuiteRunResult[]): void {
  const runs = new RunStore(path);
  try {
    for (const result of results) runs.save(result, 0, JSON.stringify(result));
  } finally {
    runs.close();
  }
}

const target = (cassette: string) => ({
  suite: 'weather',
  cassette,
  runs: [{ run: 'default', model: 'm' }],
});

describe('loadBaseline', () => {
  it('passes over a run whose every case errored (regression: an auto run without a key, which recorded nothing, became the baseline)', () => {
    const here = temporaryFolder();
    const cassette = join(here, 'weather.sqlite');
    store(join(here, 'runs.sqlite'), [
      run(cassette),
      run(cassette, { mode: 'auto', cases: [{ ...caseResult('a'), status: 'error', score: 0 }] }),
    ]);
    expect(loadBaseline(undefined, target(cassette), join(here, 'runs.sqlite'))?.source.label).toBe(
      'run #1',
    );
  });

  it('defaults to the run that last recorded the cassette, found by its path from the runs database even after the project moved', () => {
    const here = temporaryFolder();
    const cassette = join(here, 'weather.sqlite');
    store(join(here, 'runs.sqlite'), [
      run(cassette),
      run(cassette, { mode: 'auto' }),
      run(cassette, { mode: 'replay' }),
      run(cassette, { suite: 'other' }),
      run(join(here, 'other.sqlite')),
    ]);
    expect(loadBaseline(undefined, target(cassette), join(here, 'runs.sqlite'))?.source).toEqual({
      kind: 'recorded',
      label: 'run #2',
      run_id: 2,
      started_at: '2026-12-03T12:00:00.000Z',
      commit: null,
      branch: null,
    });
    const moved = temporaryFolder();
    copyFileSync(join(here, 'runs.sqlite'), join(moved, 'runs.sqlite'));
    expect(
      loadBaseline(undefined, target(join(moved, 'weather.sqlite')), join(moved, 'runs.sqlite'))
        ?.source.run_id,
    ).toBe(2);
  });

  it('reads a version 1 report file, whose rounds were called turns, under the new names', () => {
    const folder = temporaryFolder();
    const file = join(folder, 'old.json');
    const { cases: _cases, ...rest } = run(join(folder, 'w.sqlite'));
    writeFileSync(
      file,
      JSON.stringify({
        schema_version: 1,
        ...rest,
        cases: [
          {
            ...caseResult('a'),
            rounds: undefined,
            turns: 3,
            calls: [{ name: 'get_weather', arguments: '{}', mocked: false, turn: 2 }],
          },
        ],
      }),
    );
    const [loaded] =
      loadBaseline(file, target(join(folder, 'w.sqlite')), join(folder, 'none.sqlite'))?.cases ??
      [];
    expect(loaded).toMatchObject({ rounds: 3, calls: [{ name: 'get_weather', round: 2 }] });
  });

  it('finds nothing, and creates nothing, without a runs database', () => {
    const folder = temporaryFolder();
    expect(
      loadBaseline(undefined, target(join(folder, 'w.sqlite')), join(folder, 'none.sqlite')),
    ).toBeUndefined();
  });

  it('takes the last run of a branch with the same run configurations', () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'weather.sqlite');
    const main = { commit: 'abc', branch: 'main' };
    store(join(folder, 'runs.sqlite'), [
      run(cassette, { git: main }),
      run(cassette, { git: main, model: 'bigger' }),
      run(cassette, { git: { commit: 'def', branch: 'feature' } }),
    ]);
    const found = loadBaseline('branch:main', target(cassette), join(folder, 'runs.sqlite'));
    expect(found?.source).toMatchObject({ kind: 'branch', run_id: 1, commit: 'abc' });
    expect(() =>
      loadBaseline('branch:gone', target(cassette), join(folder, 'runs.sqlite')),
    ).toThrow(
      '--baseline branch:gone: no run of suite "weather" with run configurations default (m)',
    );
  });

  it('reads a runs database from before runs kept git facts, and migrates it when next written', () => {
    const folder = temporaryFolder();
    const path = join(folder, 'runs.sqlite');
    const cassette = join(folder, 'weather.sqlite');
    const old = new Database(path);
    old.exec(`CREATE TABLE runs (id INTEGER PRIMARY KEY, suite TEXT NOT NULL, file TEXT NOT NULL,
      mode TEXT NOT NULL, drive TEXT NOT NULL, cassette TEXT NOT NULL, started_at TEXT NOT NULL,
      duration_ms INTEGER NOT NULL, passed INTEGER NOT NULL, exit_code INTEGER NOT NULL, report TEXT NOT NULL)`);
    old
      .prepare(
        "INSERT INTO runs VALUES (1, 'weather', 'w', 'record', 'direct', ?, 't', 1, 1, 0, ?)",
      )
      .run(cassette, JSON.stringify(run(cassette)));
    old.close();
    expect(loadBaseline(undefined, target(cassette), path)?.source.run_id).toBe(1);
    store(path, [run(cassette, { git: { commit: 'c', branch: 'b' } })]);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT id, git_branch, cassette_key FROM runs').all()).toEqual([
        { id: 1, git_branch: null, cassette_key: null },
        { id: 2, git_branch: 'b', cassette_key: 'weather.sqlite' },
      ]);
    } finally {
      db.close();
    }
    // The old run (no key) still matches by absolute path; the newer one wins.
    expect(loadBaseline(undefined, target(cassette), path)?.source.run_id).toBe(2);
  });
});

describe('compareWithBaseline', () => {
  it('adds the diff to the run result, and nothing for a report with only pass rates', () => {
    const result = run('w.sqlite', { cases: [caseResult('a', { status: 'fail' })] });
    const source = {
      kind: 'file' as const,
      label: 'base.json',
      run_id: null,
      started_at: null,
      commit: null,
      branch: null,
    };
    const compared = compareWithBaseline(result, {
      source,
      rates: new Map([['default', 1]]),
      cases: [caseResult('a')],
    });
    expect(compared.baseline?.diff.cases[0]?.verdict?.kind).toBe('regression');
    expect(compareWithBaseline(result, { source, rates: new Map(), cases: undefined })).toBe(
      result,
    );
  });
});
