/**
 * `npm run demo:judges:record`: re-records recordings/bank-judges.sqlite, the judge answers the
 * judges demo replays. The scripted judge models stand in for real ones, so this runs offline
 * too; point --upstream / --anthropic-upstream at real providers to record real judges instead.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream } from '../../../test/support/scripted-upstream.js';
import { scriptedJudgeModel } from './scripted-judge-model.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const cassette = join(root, 'recordings/bank-judges.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(cassette + suffix, { force: true });
const ratings = join(mkdtempSync(join(tmpdir(), 'calltape-judges-demo-')), 'ratings.sqlite');
const upstream = await startScriptedUpstream((request) => scriptedJudgeModel(request));
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const calltape = (args: readonly string[]): Promise<number | null> =>
  new Promise((resolve) =>
    spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        OPENAI_API_KEY: process.env['OPENAI_API_KEY'] ?? 'sk-demo-not-a-real-key',
      },
    }).once('exit', resolve),
  );
let code = await calltape([
  'ratings',
  'import',
  'examples/bank/judges/golden.yaml',
  '--ratings',
  ratings,
]);
if (code === 0)
  code = await calltape([
    'judges',
    'compare',
    '--ratings',
    ratings,
    '--set',
    'golden',
    '--judges',
    'examples/bank/judges/judges.yaml',
    '--cassette',
    'recordings/bank-judges.sqlite',
    '--mode',
    'record',
    '--upstream',
    upstream.url,
    '--anthropic-upstream',
    upstream.url,
  ]);
await upstream.close();
rmSync(ratings, { force: true });
process.exitCode = code ?? 1;
