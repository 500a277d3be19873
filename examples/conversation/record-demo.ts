/**
 * `npm run demo:conversation:record`: re-records recordings/refund-conversation.sqlite, the
 * cassette examples/conversation/suite.yaml replays. A scripted refund model stands in for the
 * provider, so this runs offline; `calltape test examples/conversation/suite.yaml --mode record`
 * with OPENAI_API_KEY records a real model instead.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream } from '../../test/support/scripted-upstream.js';
import { refundConversationModel } from '../../test/support/refund-conversation-model.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const cassette = join(root, 'recordings/refund-conversation.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(cassette + suffix, { force: true });
const upstream = await startScriptedUpstream(refundConversationModel);
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const child = spawn(
  process.execPath,
  [
    join(root, 'dist/src/cli/main.js'),
    'test',
    'examples/conversation/suite.yaml',
    '--mode',
    'record',
    '--upstream',
    upstream.url,
    '--now',
    '2026-11-30T12:00:00Z',
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
