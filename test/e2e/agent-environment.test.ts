import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** Prints the variables calltape set, then lists Ollama's models through OLLAMA_HOST. */
const script = `const names = ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'GOOGLE_GEMINI_BASE_URL', 'GOOGLE_VERTEX_BASE_URL', 'OLLAMA_HOST', 'AZURE_OPENAI_ENDPOINT'];
console.log(JSON.stringify(Object.fromEntries(names.map((name) => [name, process.env[name]]))));
fetch(process.env.OLLAMA_HOST + '/api/tags').then((r) => r.json()).then((body) => console.log(JSON.stringify(body)));`;

describe('calltape record -- <command>: the agent environment for every wire', () => {
  it("sets every wire's base URL variable to the proxy and passes /api/… through to --ollama-upstream", async () => {
    const ollama = await startScriptedUpstream(() => ({
      kind: 'json',
      body: { models: [{ name: 'qwen3:8b' }] },
    }));
    try {
      const run = await runCliAsync(
        [
          'record',
          '--cassette',
          join(temporaryFolder(), 'env.sqlite'),
          '--ollama-upstream',
          ollama.url,
          '--',
          process.execPath,
          '-e',
          script,
        ],
        // The user's own endpoint must not leak through to the agent: calltape stands in for it.
        { env: { AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com', OLLAMA_HOST: '' } },
      );
      expect(run.status).toBe(0);
      const [variables, tags] = run.stdout.trim().split('\n');
      const env = JSON.parse(variables ?? '{}') as Record<string, string>;
      const origin = /^http:\/\/127\.0\.0\.1:\d+$/.exec(env['ANTHROPIC_BASE_URL'] ?? '')?.[0];
      expect(origin).toBeDefined();
      expect(env).toEqual({
        OPENAI_BASE_URL: `${origin}/v1`,
        ANTHROPIC_BASE_URL: origin,
        GOOGLE_GEMINI_BASE_URL: origin,
        GOOGLE_VERTEX_BASE_URL: origin,
        OLLAMA_HOST: origin,
        AZURE_OPENAI_ENDPOINT: origin,
      });
      expect(JSON.parse(tags ?? '{}')).toEqual({ models: [{ name: 'qwen3:8b' }] });
      expect(ollama.received.map((request) => request.url)).toEqual(['/api/tags']);
    } finally {
      await ollama.close();
    }
  });
});
