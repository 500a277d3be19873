import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';

// Regression: tsc writes files without the executable bit, so `npx calltape` in a fresh clone
// (which runs the package's own bin file directly) failed with "Permission denied".
describe('the built CLI', () => {
  it('runs as a program by itself, the way npx and npm bin links start it', () => {
    const run = spawnSync(cliPath, ['--version'], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
