import { execFileSync } from 'node:child_process';

/** The git commit and branch a run ran on; null when neither CI nor git could tell. */
export interface GitFacts {
  readonly commit: string | null;
  readonly branch: string | null;
}

/**
 * Commit and branch from the CI's variables: a CI checkout is often a detached HEAD (or a merge
 * commit of a pull request), where only the CI knows the branch. A pull request's own branch
 * (`GITHUB_HEAD_REF`, GitLab's merge-request source) comes before the branch the CI names.
 */
export function gitFactsFromEnvironment(env: NodeJS.ProcessEnv): GitFacts {
  const first = (...names: string[]): string | null =>
    names.map((name) => env[name]).find((value): value is string => Boolean(value)) ?? null;
  return {
    commit: first(
      'GITHUB_SHA',
      'CI_COMMIT_SHA',
      'BUILDKITE_COMMIT',
      'CIRCLE_SHA1',
      'BITBUCKET_COMMIT',
      'GIT_COMMIT',
    ),
    branch: first(
      'GITHUB_HEAD_REF',
      'GITHUB_REF_NAME',
      'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME',
      'CI_COMMIT_REF_NAME',
      'BUILDKITE_BRANCH',
      'CIRCLE_BRANCH',
      'BITBUCKET_BRANCH',
      'GIT_BRANCH',
    ),
  };
}

/**
 * The run's commit and branch: the CI's variables first, else git in `cwd`. Outside a git work
 * tree (or without git) both are null; reading them never fails a run.
 */
export function gitFacts(cwd: string, env: NodeJS.ProcessEnv = process.env): GitFacts {
  const fromCi = gitFactsFromEnvironment(env);
  const commit = fromCi.commit ?? git(cwd, ['rev-parse', 'HEAD'], env);
  const branch = fromCi.branch ?? git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], env);
  return { commit, branch };
}

function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): string | null {
  try {
    const out = execFileSync('git', args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    return out || null;
  } catch {
    return null;
  }
}
