import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';
import { loadedModulesHook, modulesLoaded } from '../support/loaded-modules.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

// What a proxy keeps resident is what it loaded: each of these pulls in a feature's code (and its
// libraries) that only some configurations use. Issue 21: an idle proxy was 120 MB RSS with them.
const shadowScoring = ['src/live/load-policies.js', 'src/live/shadow-queue.js'];
const mockTools = ['src/mocks/load-mocks.js', 'src/scoring/score-call.js'];
const mcpRoute = ['src/proxy/mcp-route.js', 'src/mcp/mcp-responder.js'];
// The Responses WebSocket mode and the dashboard's feed: both load `ws` at their first upgrade.
const webSockets = ['src/proxy/websocket-route.js', 'node_modules/ws/wrapper.mjs'];
// The proxy forwards through undici's Pool alone: the index adds fetch, WebSocket, caches, mocks.
const undiciIndex = ['node_modules/undici/index.js'];
const otherCommands = ['src/cli/commands/test-command.js', 'src/runner/run-suite.js'];

let folder: string;
let upstream: ScriptedUpstream;
let hook: string[];
beforeAll(async () => {
  folder = temporaryFolder();
  hook = loadedModulesHook(folder);
  writeFileSync(join(folder, 'policies.yaml'), 'policies:\n  - { id: schema, kind: schema }\n');
  upstream = await startScriptedUpstream(() => ({
    kind: 'json',
    body: chatCompletion({ toolCalls: [{ name: 'lookup', arguments: '{}' }] }),
  }));
});
afterAll(() => upstream.close());

/** Starts `calltape proxy <args>`, sends one chat round trip and `more`, stops it, and returns what it loaded (paths under dist/, or from node_modules/ on). */
async function proxyModulesLoaded(
  name: string,
  args: readonly string[],
  more: (url: string) => Promise<unknown> = () => Promise.resolve(),
): Promise<string[]> {
  const file = join(folder, `${name}.txt`);
  writeFileSync(file, '');
  const child = spawn(
    process.execPath,
    [
      ...hook,
      cliPath,
      'proxy',
      '--port',
      '0',
      '--upstream',
      upstream.url,
      '--cassette',
      join(folder, `${name}.sqlite`),
      '--log-level',
      'error',
      ...args,
    ],
    { cwd: folder, env: { ...process.env, LOADED_MODULES_FILE: file } },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`calltape proxy exited before listening`)));
  });
  await new OpenAI({ apiKey: 'sk-x', baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create(
    { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  );
  expect((await fetch(`${url}/metrics`)).status).toBe(200);
  await more(url);
  child.kill('SIGTERM');
  await exited;
  return modulesLoaded(file);
}

describe('what calltape proxy loads (issue 21: memory)', () => {
  it('recording without policies, mocks or MCP clients loads none of shadow scoring, mock tools, the MCP route, WebSockets or the other commands', async () => {
    const loaded = await proxyModulesLoaded('plain', []);
    expect(loaded).toContain('src/proxy/proxy-server.js');
    for (const module of [
      ...shadowScoring,
      ...mockTools,
      ...mcpRoute,
      ...webSockets,
      ...otherCommands,
    ])
      expect(loaded).not.toContain(module);
  });

  it('loads shadow scoring with --policies, and the MCP route at its first request', async () => {
    const loaded = await proxyModulesLoaded(
      'features',
      ['--policies', join(folder, 'policies.yaml'), '--shadow-db', join(folder, 'shadow.sqlite')],
      async (url) =>
        expect((await fetch(`${url}/mcp/nowhere`, { method: 'POST' })).status).toBe(404),
    );
    for (const module of [...shadowScoring, ...mcpRoute, ...undiciIndex])
      expect(loaded).toContain(module);
    for (const module of otherCommands) expect(loaded).not.toContain(module);
  });
});
