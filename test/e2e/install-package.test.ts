import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { temporaryFolder } from '../support/test-proxy.js';

/**
 * The path a team walks: `npm pack`, install the tarball into an empty project, `calltape init`,
 * then the README's CI command, verbatim, on that fresh checkout. Nothing is downloaded: the
 * tarball is unpacked where `npm install` puts it and its production dependencies are linked
 * from this clone's node_modules (exactly the set package-lock.json marks as not dev-only), so a
 * dependency missing from package.json, or a file missing from the tarball, still fails here.
 */
const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  version: string;
};
// The runs database goes where a user's would (recordings/, ignored by the recordings/.gitignore init writes).
const { CALLTAPE_RUNS_DB: _runsDb, ...inherited } = process.env;
const offline = { ...inherited, npm_config_offline: 'true', npm_config_update_notifier: 'false' };

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = offline,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `npm install -D <tarball>` without the registry: unpack into node_modules/calltape, link the dependencies and the bin. */
function installTarball(tarball: string, project: string): void {
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'calltape'), { recursive: true });
  expect(
    run('tar', ['-xzf', tarball, '--strip-components=1', '-C', join(modules, 'calltape')], project)
      .status,
  ).toBe(0);
  const lock = JSON.parse(readFileSync(join(packageRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (
      !path.startsWith('node_modules/') ||
      entry.dev === true ||
      path.lastIndexOf('node_modules/') !== 0
    )
      continue;
    mkdirSync(join(project, path, '..'), { recursive: true });
    symlinkSync(join(packageRoot, path), join(project, path), 'dir');
  }
  const bin = join(modules, 'calltape/dist/src/cli/main.js');
  chmodSync(bin, 0o755);
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync('../calltape/dist/src/cli/main.js', join(modules, '.bin/calltape'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'team-project',
      version: '1.0.0',
      private: true,
      devDependencies: { calltape: `file:${tarball}` },
    }),
  );
}

/** The CI command of the README's workflow, as written there. */
function readmeCiCommand(): string {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const workflow = /```yaml\n# \.github\/workflows\/calltape\.yml\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(workflow, 'README.md shows the workflow calltape init writes').toBeDefined();
  const command = /- run: (npx calltape test .*)/.exec(workflow ?? '')?.[1];
  expect(command).toBeDefined();
  return command ?? '';
}

function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
    statSync(join(folder, name)).isFile(),
  );
}

describe('installing the package into a project', () => {
  it('packs a self-contained tarball that installs, inits, and passes the README CI command on a fresh checkout', async () => {
    const work = temporaryFolder();
    const packed = run(
      'npm',
      ['pack', '--ignore-scripts', '--pack-destination', work],
      packageRoot,
    );
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = join(work, `calltape-${packageJson.version}.tgz`);
    expect(existsSync(tarball)).toBe(true);

    const project = join(work, 'project');
    mkdirSync(project);
    installTarball(tarball, project);
    const installed = files(join(project, 'node_modules/calltape'));
    expect(installed).toEqual(
      expect.arrayContaining([
        'dist/src/cli/main.js',
        'config/suite.schema.json',
        'dist/view/manifest.json',
        'assets/init/calltape.yaml',
        'package.json',
      ]),
    );
    expect(
      installed.filter(
        (name) =>
          name.endsWith('.map') ||
          name.endsWith('.test.js') ||
          (name.endsWith('.ts') && !name.endsWith('.d.ts')),
      ),
    ).toEqual([]);
    // Nothing in the package refers to this clone.
    const referring = installed.filter((name) =>
      readFileSync(join(project, 'node_modules/calltape', name)).includes(packageRoot),
    );
    expect(referring).toEqual([]);

    const version = run('npx', ['calltape', '--version'], project);
    expect(version.stdout.trim()).toBe(packageJson.version);

    const init = run('npx', ['calltape', 'init'], project);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('created calltape.yaml');
    expect(readFileSync(join(project, '.github/workflows/calltape.yml'), 'utf8')).toContain(
      readmeCiCommand(),
    );

    // A fresh checkout of what init wrote: no reports/ folder, nothing but the committed files.
    expect(run('git', ['init', '-q'], project).status).toBe(0);
    writeFileSync(join(project, '.gitignore'), 'node_modules/\nreports/\n');
    expect(run('git', ['add', '-A'], project).status).toBe(0);
    expect(
      run(
        'git',
        [
          '-c',
          'user.email=t@example.com',
          '-c',
          'user.name=t',
          'commit',
          '-q',
          '-m',
          'calltape init',
        ],
        project,
      ).status,
    ).toBe(0);
    const ci = run('sh', ['-c', readmeCiCommand()], project, {
      ...offline,
      CI: 'true',
      OPENAI_API_KEY: '',
    });
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    expect(ci.stdout).toContain('PASSED');
    expect(readFileSync(join(project, 'reports/calltape-junit.xml'), 'utf8')).toContain(
      '<testsuite',
    );
    expect(JSON.parse(readFileSync(join(project, 'reports/calltape.json'), 'utf8'))).toMatchObject({
      runs: [{ pass_rate: 1 }],
    });
    // The replayed cassette is untouched, and the runs database stays out of git.
    expect(run('git', ['status', '--porcelain'], project).stdout).toBe('');

    // Run again: init keeps every file.
    expect(run('npx', ['calltape', 'init'], project).stdout).not.toContain('created');

    // The proxy starts from the installed bin too (run directly: npx would not pass SIGTERM on).
    const proxy = spawn(
      join(project, 'node_modules/.bin/calltape'),
      ['proxy', '--port', '0', '--mode', 'replay', '--cassette', 'recordings/example.sqlite'],
      { cwd: project, env: offline },
    );
    let banner = '';
    const baseUrl = await new Promise<string>((resolve, reject) => {
      proxy.stdout.on('data', (data: Buffer) => {
        banner += data.toString();
        const match = /OPENAI_BASE_URL=(\S+)/.exec(banner);
        if (match?.[1]) resolve(match[1]);
      });
      proxy.once('exit', (code) => reject(new Error(`calltape proxy exited ${code}`)));
    });
    expect(banner).toContain('mode replay · cassette recordings/example.sqlite (read only');
    expect((await fetch(`${baseUrl.replace(/\/v1$/, '')}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});
