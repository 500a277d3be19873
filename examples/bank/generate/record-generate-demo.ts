/**
 * `npm run demo:generate:record`: re-records recordings/bank-generate.sqlite, the generator
 * answers the generate demo replays. The scripted generator stands in for a real model, so this
 * runs offline too; point --upstream at a real provider to record a real generator instead.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream } from '../../../test/support/scripted-upstream.js';
import { generateArgs } from './generate-args.js';
import { scriptedGeneratorModel } from './scripted-generator-model.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const cassette = join(root, 'recordings/bank-generate.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(cassette + suffix, { force: true });
const folder = mkdtempSync(join(tmpdir(), 'calltape-generate-demo-'));
const upstream = await startScriptedUpstream((request) => scriptedGeneratorModel(request));
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const code = await new Promise<number | null>((resolve) =>
  spawn(
    process.execPath,
    [
      join(root, 'dist/src/cli/main.js'),
      ...generateArgs,
      '--out',
      join(folder, 'search-drafts.yaml'),
      '--cassette',
      'recordings/bank-generate.sqlite',
      '--mode',
      'record',
      '--upstream',
      upstream.url,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        OPENAI_API_KEY: process.env['OPENAI_API_KEY'] ?? 'sk-demo-not-a-real-key',
      },
    },
  ).once('exit', resolve),
);
await upstream.close();
rmSync(folder, { recursive: true, force: true });
process.exitCode = code ?? 1;
