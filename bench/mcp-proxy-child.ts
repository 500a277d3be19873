import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { proxyListening, startChild } from './start-child.js';

/**
 * Starts `calltape proxy` (the built CLI, its own process, a free port) with `config` written to
 * `configFile`, in `mode` on `cassette`, and resolves with its base URL once it listens.
 */
export async function startConfiguredProxy(
  root: string,
  configFile: string,
  config: object,
  mode: string,
  cassette: string,
): Promise<{ child: ChildProcess; url: string }> {
  writeFileSync(configFile, JSON.stringify(config));
  const started = await startChild(
    root,
    [
      join(root, 'dist/src/cli/main.js'),
      'proxy',
      '--config',
      configFile,
      '--port',
      '0',
      '--log-level',
      'silent',
      '--mode',
      mode,
      '--cassette',
      cassette,
    ],
    {},
    proxyListening,
  );
  return { child: started.child, url: `http://127.0.0.1:${String(started.port)}` };
}
