/**
 * `npm run demo`: the whole loop offline. A scripted OpenAI-compatible upstream stands in for
 * the provider; `calltape proxy` runs in front of it; the example agent (official openai
 * package) talks to the proxy through OPENAI_BASE_URL alone; then `calltape calls` prints
 * the tool calls that were captured.
 */
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedUpstream } from '../test/support/scripted-upstream.js';
import { scriptedWeatherModel } from './scripted-weather-model.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/src/cli/main.js');
const cassette = join(root, 'recordings/demo.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(cassette + suffix, { force: true });

const upstream = await startScriptedUpstream(scriptedWeatherModel);
const proxy = spawn(
  process.execPath,
  [cli, 'proxy', '--port', '0', '--upstream', upstream.url, '--cassette', cassette],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const baseUrl = await new Promise<string>((resolve, reject) => {
  let output = '';
  proxy.stdout.on('data', (data: Buffer) => {
    output += data.toString();
    process.stdout.write(data);
    const match = /OPENAI_BASE_URL=(\S+)/.exec(output);
    if (match?.[1]) resolve(match[1]);
  });
  proxy.once('exit', (code) => reject(new Error(`calltape proxy exited with ${code}`)));
});

// The /s/<id> prefix files every request of this run under one session.
const agentBaseUrl = baseUrl.replace(/\/v1$/, '/s/weather-demo/v1');
process.stdout.write(`\n$ OPENAI_BASE_URL=${agentBaseUrl} node dist/examples/weather-agent.js\n`);
// Asynchronous on purpose: the scripted upstream answers from this process's event loop.
const agent = spawn(process.execPath, [join(root, 'dist/examples/weather-agent.js')], {
  cwd: root,
  env: { ...process.env, OPENAI_BASE_URL: agentBaseUrl, OPENAI_API_KEY: 'sk-demo-not-a-real-key' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const agentStatus = await new Promise<number | null>((resolve) => agent.once('exit', resolve));

const exited = new Promise((resolve) => proxy.once('exit', resolve));
proxy.kill('SIGTERM');
await exited;
await upstream.close();

process.stdout.write(`\n$ calltape calls --cassette recordings/demo.sqlite\n`);
const calls = spawnSync(process.execPath, [cli, 'calls', '--cassette', cassette], {
  cwd: root,
  encoding: 'utf8',
});
process.stdout.write(calls.stdout + calls.stderr);
process.exitCode = agentStatus === 0 && calls.status === 0 ? 0 : 1;
