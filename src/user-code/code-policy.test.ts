import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { codeRefusal, defaultCodePolicy, isInside, projectRoot } from './code-policy.js';
import { createUserCode } from './user-code.js';

/** A git work tree (a `.git` folder is all the root needs) with a module inside and one beside it. */
function project(): { root: string; suites: string; outside: string } {
  const parent = temporaryFolder();
  const root = join(parent, 'repo');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'suites'));
  writeFileSync(join(root, 'judge.mjs'), 'export function judge() { return { pass: true }; }');
  const outside = join(parent, 'elsewhere.mjs');
  writeFileSync(outside, 'export function judge() { return { pass: true }; }');
  return { root, suites: join(root, 'suites'), outside };
}

describe('projectRoot', () => {
  it('is the git work tree holding the folder, else the folder itself', () => {
    const { root, suites } = project();
    expect(projectRoot(suites)).toBe(root);
    // A worktree's .git is a file.
    const worktree = join(temporaryFolder(), 'wt');
    mkdirSync(join(worktree, 'deep'), { recursive: true });
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere');
    expect(projectRoot(join(worktree, 'deep'))).toBe(worktree);
  });
});

describe('codeRefusal (issue #30: a committed file may name only modules inside the project)', () => {
  it('lets a module inside the git work tree load, even from a subfolder via ..', () => {
    const { suites } = project();
    expect(codeRefusal('../judge.mjs', suites, defaultCodePolicy)).toBeUndefined();
  });

  it('refuses a module that leaves the project root, naming the root and the flag', () => {
    const { root, suites, outside } = project();
    expect(codeRefusal('../../elsewhere.mjs', suites, defaultCodePolicy)).toBe(
      `${outside} is outside the project root ${root} (the git work tree of the file naming it, else that file's folder); pass --allow-code-outside-project to load it`,
    );
    expect(codeRefusal(outside, suites, defaultCodePolicy)).toContain('outside the project root');
    expect(codeRefusal(outside, suites, { run: true, outsideProject: true })).toBeUndefined();
  });

  it('refuses a symbolic link inside the project that leads out of it', () => {
    const { suites, outside } = project();
    symlinkSync(outside, join(suites, 'link.mjs'));
    expect(codeRefusal('./link.mjs', suites, defaultCodePolicy)).toContain(
      'outside the project root',
    );
  });

  it('refuses every module under --no-code, inside the project or not', () => {
    const { suites } = project();
    expect(codeRefusal('../judge.mjs', suites, { run: false, outsideProject: true })).toBe(
      `--no-code: refused to load ${resolve(suites, '../judge.mjs')}`,
    );
  });
});

describe('isInside', () => {
  const segment = fc
    .stringMatching(/^[a-z.][a-z0-9._-]{0,7}$/)
    .filter((s) => s !== '.' && s !== '..');
  it('holds for the root and every path built under it; never for its parent', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), (segments) => {
        const root = '/work/project';
        expect(isInside(join(root, ...segments), root)).toBe(true);
        expect(isInside('/work', root)).toBe(false);
      }),
    );
  });
  it('tells a sibling sharing the prefix, and a name starting with two dots, apart', () => {
    expect(isInside('/work/project-evil/x.mjs', '/work/project')).toBe(false);
    expect(isInside('/work/project/..hidden/x.mjs', '/work/project')).toBe(true);
    expect(isInside('/work/project/../x.mjs', '/work/project')).toBe(false);
  });
});

describe('createUserCode', () => {
  it('issue #30: never loads a module outside the project root: the call rejects with the reason', async () => {
    const { suites, outside } = project();
    const code = createUserCode(suites);
    try {
      await expect(
        code.call({
          module: outside,
          exports: ['judge'],
          signature: 'judge()',
          args: [],
          timeoutMs: 5000,
        }),
      ).rejects.toThrow('outside the project root');
    } finally {
      await code.close();
    }
  });
});
