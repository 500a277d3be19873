import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every temporary folder a test run makes (its own, its child processes',
 * Chromium's) goes under one folder for the run, removed when the run ends. Tests made hundreds
 * of folders per run in the system's temporary directory and left them there.
 */
export default function setup(): () => void {
  const previous = process.env['TMPDIR'];
  const root = mkdtempSync(join(tmpdir(), 'calltape-run-'));
  // Workers and the processes tests start inherit the environment, and `os.tmpdir()` reads it.
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  };
}
