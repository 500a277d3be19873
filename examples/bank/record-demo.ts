/**
 * `npm run demo:record`: re-records recordings/bank-demo.sqlite, the cassette the demo replays.
 * The bundled scripted model stands in for the provider, so this too runs offline; point
 * --upstream at a real provider (and set OPENAI_API_KEY) to record a real model instead.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream } from '../../test/support/scripted-upstream.js';
import { scriptedBankModel } from './scripted-bank-model.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const cassette = join(root, 'recordings/bank-demo.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(cassette + suffix, { force: true });
const upstream = await startScriptedUpstream((request) => scriptedBankModel(request));
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const child = spawn(
  process.execPath,
  [
    join(root, 'dist/src/cli/main.js'),
    'test',
    'examples/bank/suite.yaml',
    '--mode',
    'record',
    '--upstream',
    upstream.url,
    '--now',
    '2026-11-30T12:00:00Z',
    '--concurrency',
    '4',
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
process.exitCode = code ?? 1;
