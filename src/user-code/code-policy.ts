import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * What a run lets the modules that committed files name (code judges, mock modules) do. Such a
 * module runs with the user's rights, unsandboxed, like a test file: a suite in a pull request
 * is code.
 */
export interface CodePolicy {
  /** False under `--no-code`: every module is refused, and the case that needed one says so. */
  readonly run: boolean;
  /** `--allow-code-outside-project`: a module may lie outside the project root of the file naming it. */
  readonly outsideProject: boolean;
}

/** The command-line options that set the policy, for every command that can load modules. */
export const codePolicyOptions = [
  {
    flags: '--no-code',
    description:
      'refuse every module suites, mocks and policies name (code judges, mock modules): a case that needs one is an ERROR naming it',
  },
  {
    flags: '--allow-code-outside-project',
    description:
      'load modules outside the project root (the git work tree of the file naming them, else its folder)',
  },
] as const;

/** Modules run, from inside the project only. */
export const defaultCodePolicy: CodePolicy = { run: true, outsideProject: false };

/** The policy the `--no-code` and `--allow-code-outside-project` flags ask for (commander's `code` is false under `--no-code`). */
export function codePolicyFromFlags(flags: {
  readonly code?: boolean;
  readonly allowCodeOutsideProject?: boolean;
}): CodePolicy {
  return { run: flags.code !== false, outsideProject: flags.allowCodeOutsideProject === true };
}

/**
 * The project root of a folder: the git work tree holding it (the nearest folder up with a
 * `.git` entry, a directory or a worktree's file), else the folder itself.
 */
export function projectRoot(folder: string): string {
  const start = resolve(folder);
  for (let current = start; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return start;
  }
}

/**
 * Why `module` may not be loaded for a file in `folder`, or undefined when it may. Both paths are
 * compared with symbolic links resolved, so a link inside the project cannot lead out of it.
 */
export function codeRefusal(
  module: string,
  folder: string,
  policy: CodePolicy,
): string | undefined {
  const path = isAbsolute(module) ? module : resolve(folder, module);
  if (!policy.run) return `--no-code: refused to load ${path}`;
  if (policy.outsideProject) return undefined;
  const root = projectRoot(folder);
  if (isInside(real(path), real(root))) return undefined;
  return `${path} is outside the project root ${root} (the git work tree of the file naming it, else that file's folder); pass --allow-code-outside-project to load it`;
}

/** Whether `path` is `root` or lies under it. */
export function isInside(path: string, root: string): boolean {
  const apart = relative(root, path);
  return apart !== '..' && !apart.startsWith(`..${sep}`) && !isAbsolute(apart);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
