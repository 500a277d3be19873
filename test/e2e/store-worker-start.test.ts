import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliProxy } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { recordedRows } from '../support/recorded-rows.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

// Issue 21: the store worker's isolate is ~10 MB resident; a proxy that writes nothing must not
// start it. Every thread of the child loads this preload (workers inherit NODE_OPTIONS' --import),
// and each worker thread notes itself in a file, so the test counts real threads started.
let folder: string;
let upstream: ScriptedUpstream;
beforeAll(async () => {
  folder = temporaryFolder();
  writeFileSync(
    join(folder, 'note-workers.mjs'),
    `import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
if (!isMainThread) appendFileSync(process.env.WORKERS_FILE, 'worker\\n');
`,
  );
  writeFileSync(join(folder, 'config.json'), '{ "cassettes": { "allowRequestOverride": true } }');
  upstream = await startScriptedUpstream(() => ({ kind: 'json', body: chatCompletion({}) }));
});
afterAll(() => upstream.close());

/** Runs `calltape proxy --mode <mode>` on `<cassette>.sqlite`, sends one chat round trip under `prefix`, stops it; returns the worker threads it started. */
async function workersStarted(
  name: string,
  mode: string,
  prefix = '',
  cassette = name,
): Promise<number> {
  const file = join(folder, `${name}.txt`);
  writeFileSync(file, '');
  const proxy = await startCliProxy(
    [
      '--config',
      join(folder, 'config.json'),
      '--upstream',
      upstream.url,
      '--mode',
      mode,
      '--cassette',
      join(folder, `${cassette}.sqlite`),
      '--log-level',
      'error',
    ],
    {
      cwd: folder,
      env: {
        WORKERS_FILE: file,
        NODE_OPTIONS: `--import=${pathToFileURL(join(folder, 'note-workers.mjs')).href}`,
      },
    },
  );
  const client = new OpenAI({ apiKey: 'sk-x', baseURL: `${proxy.url}${prefix}/v1`, maxRetries: 0 });
  await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  proxy.child.kill('SIGTERM');
  expect(await proxy.exited).toBe(0);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
}

describe('the store worker starts at its first use (issue 21: memory)', () => {
  it('passthrough forwards without starting it', async () => {
    expect(await workersStarted('passthrough', 'passthrough')).toBe(0);
  });

  it('record starts it, and what it recorded is in the cassette after shutdown', async () => {
    expect(await workersStarted('record', 'record')).toBe(1);
    expect(recordedRows(join(folder, 'record.sqlite'))).toHaveLength(1);
  });

  it('replay answers from the cassette record wrote without starting it', async () => {
    expect(await workersStarted('replay', 'replay', '', 'record')).toBe(0);
  });

  it('a passthrough proxy starts it when a request asks to record (/c/<name>:record/), and flushes it on shutdown', async () => {
    expect(await workersStarted('switch', 'passthrough', '/c/asked:record')).toBe(1);
    expect(recordedRows(join(folder, 'asked.sqlite'))).toHaveLength(1);
  });
});
