import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFacts, gitFactsFromEnvironment } from './git-facts.js';

describe('gitFactsFromEnvironment', () => {
  it("names a GitHub pull request's own branch, not the merge ref", () => {
    expect(
      gitFactsFromEnvironment({
        GITHUB_SHA: 'abc',
        GITHUB_REF_NAME: '12/merge',
        GITHUB_HEAD_REF: 'feature/prompt',
      }),
    ).toEqual({ commit: 'abc', branch: 'feature/prompt' });
  });

  it('reads GitLab, and counts an empty variable as unset', () => {
    expect(
      gitFactsFromEnvironment({
        GITHUB_HEAD_REF: '',
        CI_COMMIT_SHA: 'def',
        CI_COMMIT_REF_NAME: 'main',
      }),
    ).toEqual({ commit: 'def', branch: 'main' });
  });
});

describe('gitFacts', () => {
  it('asks git in the folder when no CI variable says', () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-git-'));
    const run = (...args: string[]): string =>
      execFileSync('git', args, { cwd: folder, encoding: 'utf8' }).trim();
    run('init', '--quiet', '--initial-branch', 'trunk');
    writeFileSync(join(folder, 'a.txt'), 'a');
    run('add', 'a.txt');
    run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'a');
    expect(gitFacts(folder, {})).toEqual({ commit: run('rev-parse', 'HEAD'), branch: 'trunk' });
  });

  it('is null outside a git work tree', () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-nogit-'));
    expect(gitFacts(folder, { GIT_CEILING_DIRECTORIES: tmpdir() })).toEqual({
      commit: null,
      branch: null,
    });
  });
});
