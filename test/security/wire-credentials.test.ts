import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { createLogger } from '../../src/logger.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(() => ({
    kind: 'json',
    body: chatCompletion({ text: 'ok' }),
  }));
});
afterAll(() => upstream.close());

/** How each new wire carries its credential: a header or a query parameter, on the route it uses. */
const forms: readonly {
  readonly name: string;
  readonly path: string;
  readonly credential: (secret: string) => {
    readonly headers?: Record<string, string>;
    readonly query?: string;
  };
}[] = [
  {
    name: "Gemini's x-goog-api-key header",
    path: '/v1/chat/completions',
    credential: (secret) => ({ headers: { 'x-goog-api-key': secret } }),
  },
  {
    name: "Gemini's ?key= query parameter",
    path: '/v1/chat/completions',
    credential: (secret) => ({ query: `alt=sse&key=${secret}` }),
  },
  {
    name: "Vertex AI's Authorization: Bearer token",
    path: '/v1/chat/completions',
    credential: (secret) => ({ headers: { authorization: `Bearer ya29.${secret}` } }),
  },
  {
    name: "Azure OpenAI's api-key header",
    path: '/openai/deployments/gpt-4o/chat/completions',
    credential: (secret) => ({ headers: { 'api-key': secret }, query: 'api-version=2024-10-21' }),
  },
  {
    name: "Azure OpenAI's Entra ID Authorization",
    path: '/openai/v1/chat/completions',
    credential: (secret) => ({ headers: { authorization: `Bearer eyJ0eXAi.${secret}.sig` } }),
  },
];

function fileBytes(path: string): Buffer {
  return Buffer.concat(
    [path, `${path}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)),
  );
}

async function send(
  origin: string,
  path: string,
  credential: ReturnType<(typeof forms)[number]['credential']>,
): Promise<Response> {
  return fetch(`${origin}${path}${credential.query ? `?${credential.query}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credential.headers },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('credentials of the new wires: never stored, logged or keyed', () => {
  for (const form of forms)
    it(`${form.name}: kept out of the cassette, the logs and the match key`, async () => {
      const secret = 'WIRESECRET0123456789abcdefXYZ';
      const cassette = join(temporaryFolder(), 'c.sqlite');
      const lines: string[] = [];
      const recorder = await startTestProxy(
        upstream.url,
        { cassette, mode: 'record', azureUpstream: upstream.url, logLevel: 'debug' },
        { logger: createLogger('debug', (line) => lines.push(line)) },
      );
      expect((await send(recorder.url, form.path, form.credential(secret))).status).toBe(200);
      // The upstream gets the credential as sent.
      const received = upstream.received.at(-1);
      expect(`${received?.url ?? ''} ${JSON.stringify(received?.headers)}`).toContain(secret);
      await recorder.close();
      expect(fileBytes(cassette).includes(secret)).toBe(false);
      expect(lines.join('\n')).not.toContain(secret);
      const store = new SqliteStore(cassette, { readonly: true });
      const [interaction] = store.interactions();
      store.close();
      expect(JSON.stringify(interaction)).not.toContain(secret);

      // Another credential value replays the same recording: the credential is no part of the key.
      const replayer = await startTestProxy(upstream.url, { cassette, mode: 'replay' });
      try {
        const replayed = await send(
          replayer.url,
          form.path,
          form.credential('OTHERSECRET9876543210zyxw'),
        );
        expect(replayed.status).toBe(200);
        expect(replayer.stats.hits).toBe(1);
      } finally {
        await replayer.close();
      }
    });
});
