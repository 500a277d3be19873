/**
 * Re-records the example cassette `calltape init` installs (assets/init/example-cassette/, an
 * export of recordings/example.sqlite for assets/init/calltape.yaml), offline: a scripted model
 * answers the two example cases as gpt-4o-mini would. Run after changing the example suite:
 * `npm run build && node dist/examples/init/record-init-example.js`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCassette } from '../../src/cassette/sqlite/cassette-files.js';
import { chatCompletion } from '../../test/support/openai-chat-chunks.js';
import { startScriptedUpstream } from '../../test/support/scripted-upstream.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'calltape-init-example-'));
copyFileSync(join(root, 'assets/init/calltape.yaml'), join(project, 'calltape.yaml'));
const upstream = await startScriptedUpstream((request) => {
  const prompt =
    (JSON.parse(request.body) as { messages: { content: string }[] }).messages.at(-1)?.content ??
    '';
  return {
    kind: 'json',
    body: /weather/i.test(prompt)
      ? chatCompletion({
          toolCalls: [
            {
              id: 'call_weather_1',
              name: 'get_weather',
              arguments: '{"city":"Paris","unit":"celsius"}',
            },
          ],
          usage: { prompt_tokens: 71, completion_tokens: 18 },
        })
      : chatCompletion({
          text: 'Hello! Ask me about the weather anywhere.',
          usage: { prompt_tokens: 62, completion_tokens: 11 },
        }),
  };
});
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const child = spawn(
  process.execPath,
  [
    join(root, 'dist/src/cli/main.js'),
    'test',
    'calltape.yaml',
    '--mode',
    'record',
    '--upstream',
    upstream.url,
    '--no-store',
    '--concurrency',
    '1',
  ],
  {
    cwd: project,
    stdio: 'inherit',
    env: { ...process.env, OPENAI_API_KEY: 'sk-example-not-a-real-key' },
  },
);
const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
await upstream.close();
if (code === 0)
  process.stdout.write(
    `exported ${exportCassette(join(project, 'recordings/example.sqlite'), join(root, 'assets/init/example-cassette'))} interaction(s) to assets/init/example-cassette\n`,
  );
process.exitCode = code ?? 1;
