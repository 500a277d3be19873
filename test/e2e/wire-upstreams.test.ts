import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

/** One upstream per wire, each answering with its own name, so a test sees where a request went. */
const names = ['openai', 'anthropic', 'gemini', 'vertex', 'ollama', 'azure'] as const;
const upstreams = new Map<(typeof names)[number], ScriptedUpstream>();

beforeAll(async () => {
  for (const name of names)
    upstreams.set(
      name,
      await startScriptedUpstream((request) =>
        request.url.includes('chat/completions')
          ? { kind: 'json', body: chatCompletion({ text: `from ${name}` }) }
          : { kind: 'json', body: { upstream: name } },
      ),
    );
});
afterAll(async () => {
  await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
});

function url(name: (typeof names)[number]): string {
  const upstream = upstreams.get(name);
  if (!upstream) throw new Error(`no ${name} upstream`);
  return upstream.url;
}

function lastUrl(name: (typeof names)[number]): string | undefined {
  return upstreams.get(name)?.received.at(-1)?.url;
}

describe('routing by path to per-wire upstreams', () => {
  it('passes uncaptured routes through to the upstream their path names', async () => {
    const proxy = await startTestProxy(url('openai'), {
      anthropicUpstream: url('anthropic'),
      geminiUpstream: url('gemini'),
      vertexUpstream: url('vertex'),
      ollamaUpstream: url('ollama'),
      azureUpstream: url('azure'),
      mode: 'passthrough',
    });
    const get = async (path: string, init: RequestInit = {}): Promise<unknown> =>
      (await fetch(`${proxy.url}${path}`, init)).json();
    try {
      expect(
        await get('/v1beta/models/gemini-2.5-flash:countTokens?key=AIzaSyA-test', {
          method: 'POST',
          body: '{}',
        }),
      ).toEqual({ upstream: 'gemini' });
      expect(lastUrl('gemini')).toBe(
        '/v1beta/models/gemini-2.5-flash:countTokens?key=AIzaSyA-test',
      );
      expect(
        await get(
          '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens',
          { method: 'POST', body: '{}' },
        ),
      ).toEqual({ upstream: 'vertex' });
      expect(await get('/api/tags')).toEqual({ upstream: 'ollama' });
      expect(
        await get('/openai/deployments/d/embeddings?api-version=2024-10-21', {
          method: 'POST',
          body: '{}',
        }),
      ).toEqual({ upstream: 'azure' });
      expect(await get('/v1/models')).toEqual({ upstream: 'openai' });
      expect(await get('/v1/models', { headers: { 'anthropic-version': '2023-06-01' } })).toEqual({
        upstream: 'anthropic',
      });
    } finally {
      await proxy.close();
    }
  });

  it('records an Azure OpenAI deployment route through the azure upstream, the deployment as the model and api-version kept in the stored path', async () => {
    const cassette = join(temporaryFolder(), 'azure.sqlite');
    const proxy = await startTestProxy(url('openai'), {
      azureUpstream: url('azure'),
      cassette,
    });
    try {
      // The body names no model: Azure takes it from the deployment in the path.
      const answer = await fetch(
        `${proxy.url}/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': 'azure-secret-0123456789' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
        },
      );
      expect(await answer.json()).toMatchObject({
        choices: [{ message: { content: 'from azure' } }],
      });
      expect(lastUrl('azure')).toBe(
        '/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21',
      );
    } finally {
      await proxy.close();
    }
    const store = new SqliteStore(cassette, { readonly: true });
    try {
      const [interaction] = store.interactions();
      expect(interaction?.path).toBe(
        '/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21',
      );
      expect(interaction?.request.model).toBe('prod-4o');
    } finally {
      store.close();
    }
  });

  it("answers an Azure route without azureUpstream with an error in OpenAI's shape saying how to set it", async () => {
    const proxy = await startTestProxy(url('openai'), { mode: 'passthrough' });
    try {
      const client = new OpenAI({
        apiKey: 'unused',
        baseURL: `${proxy.url}/openai/v1`,
        maxRetries: 0,
      });
      const failure = await client.chat.completions
        .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((failure as Error).message).toContain('azureUpstream');
      // Uncaptured Azure routes too.
      const passThrough = await fetch(`${proxy.url}/openai/deployments/d/embeddings`, {
        method: 'POST',
        body: '{}',
      });
      expect(passThrough.status).toBe(502);
      expect(await passThrough.json()).toMatchObject({
        error: { message: expect.stringContaining('CALLTAPE_AZURE_UPSTREAM') },
      });
      expect(
        upstreams.get('openai')?.received.some((request) => request.url.includes('/openai/')),
      ).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
