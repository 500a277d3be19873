/**
 * Re-records an example suite's cassette offline: a scripted model stands in for the provider
 * and `calltape test --mode record` runs the suite against it (the `demo:*record` scripts).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream, type Script } from '../test/support/scripted-upstream.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Records `suite` (relative to the repository) into `cassette` (relative too, replaced whole) against `model`; resolves with the exit code. */
export async function recordExampleSuite(
  suite: string,
  cassette: string,
  model: Script,
  extraArgs: readonly string[] = [],
): Promise<number> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(root, cassette) + suffix, { force: true });
  const upstream = await startScriptedUpstream(model);
  // Asynchronous on purpose: the scripted upstream answers from this process's event loop.
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist/src/cli/main.js'),
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      upstream.url,
      ...extraArgs,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        OPENAI_API_KEY: process.env['OPENAI_API_KEY'] ?? 'sk-demo-not-a-real-key',
      },
    },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  await upstream.close();
  return code ?? 1;
}
