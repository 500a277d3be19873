import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../support/cli.js';
import { filesLoaded, loadedModulesHook, modulesLoaded } from '../support/loaded-modules.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** Runs `calltape <args>` with the loader hook and returns the file the hook wrote. */
function run(folder: string, name: string, args: readonly string[]): string {
  const file = join(folder, `${name}.txt`);
  const result = spawnSync(process.execPath, [...loadedModulesHook(folder), cliPath, ...args], {
    cwd: folder,
    env: { ...process.env, LOADED_MODULES_FILE: file },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return file;
}

// Issue 37: resolving and compiling some 650 files one by one was most of `calltape --version`'s
// 0.6 s, and of the fixed cost of `calltape replay`. The CLI is bundled (scripts/bundle-cli.ts).
describe('what a calltape command loads at start (issue 37: start-up)', () => {
  it('`calltape --version` loads a few bundled files, no command module and no dependency', () => {
    const folder = temporaryFolder();
    const file = run(folder, 'version', ['--version']);
    const files = filesLoaded(file).filter((url) => url.startsWith('file:'));
    expect(files.filter((url) => !url.includes('/dist/src/'))).toEqual([]);
    expect(files.length).toBeLessThan(8);
    expect(modulesLoaded(file).filter((module) => module.includes('/commands/'))).toEqual([]);
  });

  it('`calltape replay` loads its command from a few bundled files, and of node_modules only the native SQLite binding', () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'empty.sqlite');
    expect(
      runCli(['record', '--cassette', cassette, '--', process.execPath, '-e', '']).status,
    ).toBe(0);
    const file = run(folder, 'replay', [
      'replay',
      '--cassette',
      cassette,
      '--',
      process.execPath,
      '-e',
      '',
    ]);
    const files = filesLoaded(file).filter((url) => url.startsWith('file:'));
    expect(files.filter((url) => url.includes('/node_modules/'))).toEqual([
      expect.stringMatching(/\/node_modules\/better-sqlite3\/lib\/index\.js$/),
    ]);
    expect(files.length).toBeLessThan(80);
    // Still the replay command, and only it.
    const modules = modulesLoaded(file);
    expect(modules).toContain('src/cli/commands/wrap-command.js');
    expect(modules).not.toContain('src/cli/commands/test-command.js');
  });
});
