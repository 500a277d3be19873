import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import {
  freshPostgresDatabase,
  postgresSkipNote,
  postgresTestsRun,
} from '../../test/support/postgres.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { loadBaseline } from '../runner/load-baseline.js';
import { RunStore } from '../runner/run-store.js';
import { ViewRunsReader } from '../view/view-runs-reader.js';

/** A run of suite `suite` on `branch`, whose one case passes or fails. */
function run(suite: string, branch: string, passed: boolean, commit = 'c0ffee'): SuiteRunResult {
  return {
    suite,
    file: `${suite}.yaml`,
    mode: 'record',
    drive: 'direct',
    cassette: `recordings/${suite}.sqlite`,
    started_at: '2026-12-03T12:00:00.000Z',
    duration_ms: 12,
    runs: [
      {
        run: 'default',
        model: 'm',
        total: 1,
        passed: passed ? 1 : 0,
        failed: passed ? 0 : 1,
        errors: 0,
        pass_rate: passed ? 1 : 0,
        mean_score: passed ? 1 : 0.25,
      },
    ],
    cases: [caseResult('TC-1', passed ? {} : { status: 'fail', score: 0.25 })],
    gates: [],
    passed,
    git: { commit, branch },
  };
}

function save(location: string, results: readonly SuiteRunResult[]): number[] {
  const store = new RunStore(location);
  try {
    return results.map((result) =>
      store.save(result, result.passed ? 0 : 1, JSON.stringify(result)),
    );
  } finally {
    store.close();
  }
}

/**
 * The runs store's contract, run against each backend: what `calltape test` stores, `runs`,
 * `--baseline` and `calltape view` read back must not depend on where the runs are kept.
 */
function describeRunsStore(name: string, makeLocation: () => Promise<string>): void {
  describe(`runs store contract: ${name}`, () => {
    let location = '';
    beforeAll(async () => {
      location = await makeLocation();
    });

    it('stores runs from several runners and branches and reads each back as stored', () => {
      // Two "runners": separate stores writing into the same database.
      const [first] = save(location, [run('bank', 'main', true, 'aaa111')]);
      const [second, third] = save(location, [
        run('bank', 'feature/eur', false, 'bbb222'),
        run('weather', 'main', true, 'ccc333'),
      ]);
      expect(new Set([first, second, third]).size).toBe(3);
      const store = new RunStore(location, { readonly: true });
      try {
        const listed = store.list(10);
        expect(listed.map((stored) => stored.id)).toEqual([third, second, first]);
        expect(listed[1]).toMatchObject({
          suite: 'bank',
          passed: false,
          exit_code: 1,
          configs: [
            { name: 'default', model: 'm', total: 1, passed: 0, pass_rate: 0, unreliable: 0 },
          ],
        });
        expect(listed[1]?.configs[0]?.mean_score).toBeCloseTo(0.25);
        expect(JSON.parse(store.report(second as number) as string)).toMatchObject({
          suite: 'bank',
          git: { branch: 'feature/eur' },
        });
        expect(store.report(9_999)).toBeUndefined();
        expect(store.cases(second as number, 'default')).toEqual([
          expect.objectContaining({ test_id: 'TC-1', status: 'fail', score: 0.25 }),
        ]);
        expect(store.configs(first as number)).toEqual(['default']);
        expect(store.gitFacts(first as number)).toEqual({ commit: 'aaa111', branch: 'main' });
        expect(store.runsOfBranch('bank', 'main')).toEqual([first]);
        expect(store.lastRecording('bank', 'recordings/bank.sqlite')).toBe(second);
      } finally {
        store.close();
      }
    });

    it('lists the runs for the view with branch and suite filters and the filter values', () => {
      const reader = new ViewRunsReader(location);
      try {
        const onMain = reader.runs({ branch: 'main', limit: 10 });
        expect(onMain.matched).toBe(2);
        expect(onMain.runs.map((listed) => listed.suite).sort()).toEqual(['bank', 'weather']);
        const bank = reader.runs({ suite: 'bank', limit: 1 });
        expect(bank.matched).toBe(2);
        expect(bank.runs[0]).toMatchObject({
          suite: 'bank',
          git_branch: 'feature/eur',
          passed: false,
          configs: [{ name: 'default', failed: 1, errors: 0 }],
        });
        expect(reader.filterValues()).toEqual({
          suites: ['bank', 'weather'],
          configs: ['default'],
          branches: ['feature/eur', 'main'],
        });
        const id = bank.runs[0]?.id as number;
        expect(reader.run(id)?.git_commit).toBe('bbb222');
        expect(reader.report(id)?.suite).toBe('bank');
        expect(reader.cassetteKey(id)).toMatch(/bank\.sqlite$/);
      } finally {
        reader.close();
      }
    });

    it("finds main's last run of the suite as the baseline of a branch (--baseline branch:main)", () => {
      const [newer] = save(location, [run('bank', 'main', false, 'ddd444')]);
      const baseline = loadBaseline(
        'branch:main',
        {
          suite: 'bank',
          cassette: 'recordings/bank.sqlite',
          runs: [{ run: 'default', model: 'm' }],
        },
        location,
      );
      expect(baseline?.source).toMatchObject({ kind: 'branch', run_id: newer, commit: 'ddd444' });
      expect(baseline?.rates.get('default')).toBe(0);
    });
  });
}

describeRunsStore('SQLite', () => Promise.resolve(join(temporaryFolder(), 'calltape-runs.sqlite')));
describe.runIf(postgresTestsRun)(`PostgreSQL${postgresSkipNote}`, () => {
  describeRunsStore('PostgreSQL', freshPostgresDatabase);
});
describe.skipIf(postgresTestsRun)(`runs store contract: PostgreSQL${postgresSkipNote}`, () => {
  it.skip('runs under scripts/with-postgres.sh', () => undefined);
});
