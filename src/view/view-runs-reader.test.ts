import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../runner/run-store.js';
import { runsGitIndex } from '../stores/runs-database.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { storeViewRuns } from '../../test/support/view-runs.js';
import { ViewRunsReader } from './view-runs-reader.js';

const hasGitIndex = (path: string): boolean => {
  const db = new Database(path, { readonly: true });
  try {
    return (
      db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?")
        .get(runsGitIndex) !== undefined
    );
  } finally {
    db.close();
  }
};

/** What the runs list answers from a runs database: all runs, those of a branch, and the filters. */
function listed(path: string) {
  const reader = new ViewRunsReader(path);
  try {
    return {
      all: reader.runs({ limit: 10 }),
      main: reader.runs({ branch: 'main', limit: 10 }),
      eur: reader.runs({ branch: 'feature/eur', suite: 'bank', limit: 10 }),
      one: reader.run(2),
      filters: reader.filterValues(),
    };
  } finally {
    reader.close();
  }
}

describe('the runs list reads git facts through the runs_git index (a run row’s git columns sit behind its report)', () => {
  it('answers the same with the index as a file from before it, which gains it when next written', () => {
    const folder = temporaryFolder();
    const indexed = join(folder, 'runs.sqlite');
    storeViewRuns(indexed);
    expect(hasGitIndex(indexed)).toBe(true);
    const older = join(folder, 'older.sqlite');
    copyFileSync(indexed, older);
    const db = new Database(older);
    db.exec(`DROP INDEX ${runsGitIndex}`);
    db.close();

    const withIndex = listed(indexed);
    expect(withIndex).toEqual(listed(older));
    expect(withIndex.main.runs.map((run) => [run.id, run.git_branch])).toEqual([[1, 'main']]);
    expect(withIndex.eur.runs.map((run) => run.git_commit)).toEqual(['9f8e7d6c5b4a']);
    expect(withIndex.filters.branches).toEqual(['feature/eur', 'main']);

    new RunStore(older).close();
    expect(hasGitIndex(older)).toBe(true);
  });
});
