import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';

/** The compiled CLI; `npm test` builds it before running the suite. */
export const cliPath = join(packageRoot, 'dist/src/cli/main.js');

export interface CliProxy {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly baseUrl: string;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  stderr(): string;
  /** What it printed so far (the banner first). */
  stdout(): string;
}

/** Runs `calltape <args>` to completion. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): { status: number | null; stdout: string; stderr: string } {
  ensureBuilt();
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? packageRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs `calltape <args>` to completion without blocking this process (whose servers it may talk
 * to); `cli` runs another build of calltape (a benchmark comparing two).
 */
export async function runCliAsync(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; cli?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  if (options.cli === undefined) ensureBuilt();
  const child = spawn(process.execPath, [options.cli ?? cliPath, ...args], {
    cwd: options.cwd ?? packageRoot,
    env: { ...process.env, ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const status = await new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { status, stdout, stderr };
}

/** Starts `calltape proxy <args>` and resolves once it printed its base URL. */
export async function startCliProxy(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliProxy> {
  ensureBuilt();
  const child = spawn(process.execPath, [cliPath, 'proxy', '--port', '0', ...args], {
    cwd: options.cwd ?? packageRoot,
    env: { ...process.env, ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      const match = /OPENAI_BASE_URL=(\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(new Error(`calltape proxy exited (${code}) before listening: ${stderr}`)),
    );
  });
  return {
    child,
    url: baseUrl.replace(/\/v1$/, ''),
    baseUrl,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
  };
}

function ensureBuilt(): void {
  if (!existsSync(cliPath))
    throw new Error(
      `${cliPath} is missing: run \`npm run build\` (npm test does) before the CLI tests`,
    );
}
