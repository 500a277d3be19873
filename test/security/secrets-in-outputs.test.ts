import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Interaction } from '../../src/trace/trace.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream, type ScriptedResponse } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const running: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of running) await item.close();
});

/** A key shape no built-in pattern knows: only the credential check can catch it. */
const key = 'proj-SECRETKEY0123456789abcdef';

function fileBytes(path: string): Buffer {
  return Buffer.concat(
    [path, `${path}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)),
  );
}

/** Records one answer and returns what every sink got: the stored interactions, the observer's, and the raw file. */
async function recordOne(
  answer: ScriptedResponse,
  headers: Record<string, string> = {},
  stream = false,
): Promise<{ stored: Interaction[]; observed: Interaction[]; file: Buffer }> {
  const upstream = await startScriptedUpstream([answer]);
  running.push(upstream);
  const cassette = join(temporaryFolder(), 'c.sqlite');
  const observed: Interaction[] = [];
  const proxy = await startTestProxy(
    upstream.url,
    { cassette, mode: 'record' },
    {
      observer: { interaction: (interaction) => observed.push(interaction), miss: () => undefined },
    },
  );
  const client = new OpenAI({ apiKey: key, baseURL: proxy.baseUrl, maxRetries: 0 });
  const params = {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'What key did I send?' }],
  };
  if (stream) await client.chat.completions.stream(params, { headers }).finalChatCompletion();
  else await client.chat.completions.create(params, { headers });
  await proxy.close();
  const store = new SqliteStore(cassette, { readonly: true });
  const stored = store.interactions();
  store.close();
  return { stored, observed, file: fileBytes(cassette) };
}

describe('secrets in outputs that skipped the check', () => {
  it('redacts the agent key the model echoes in a gzip-encoded answer, in the cassette and the trace', async () => {
    const { stored, observed, file } = await recordOne({
      kind: 'json',
      gzip: true,
      body: chatCompletion({
        text: `You sent ${key}.`,
        toolCalls: [{ name: 'save', arguments: JSON.stringify({ key }) }],
      }),
    });
    expect(stored).toHaveLength(1);
    for (const interaction of [...stored, ...observed]) {
      expect(JSON.stringify(interaction)).not.toContain(key);
      expect(interaction.response?.output.text).toBe('You sent [REDACTED:credential].');
      expect(interaction.response?.output.toolCalls[0]?.argumentsRaw).toBe(
        '{"key":"[REDACTED:credential]"}',
      );
    }
    expect(file.includes(key)).toBe(false);
  });

  it('redacts the agent key split across SSE events, stored re-expressed as a stream that replays without it', async () => {
    const { stored, observed, file } = await recordOne(
      {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(
            {
              text: `Your key: ${key}`,
              toolCalls: [{ name: 'save', arguments: JSON.stringify({ key }) }],
            },
            seededRandom(3),
          ),
        ),
        split: { seed: 1, maxPiece: 5 },
      },
      {},
      true,
    );
    expect(stored).toHaveLength(1);
    for (const interaction of [...stored, ...observed]) {
      expect(JSON.stringify(interaction)).not.toContain(key);
      expect(interaction.response?.output.text).toBe('Your key: [REDACTED:credential]');
    }
    // No fragment run long enough to rebuild the key is left in the stored stream either.
    expect(file.includes(key.slice(0, 12))).toBe(false);
  });

  it('redacts x-goog-api-key, cookie values and configured credential headers wherever they appear', async () => {
    const google = 'GOOGKEY-0123456789abcdef';
    const cookie = 'COOKIEVALUE-0123456789';
    const { stored, file } = await recordOne(
      { kind: 'json', body: chatCompletion({ text: `goog ${google} cookie ${cookie}` }) },
      { 'x-goog-api-key': google, cookie: `session=${cookie}` },
    );
    expect(stored[0]?.response?.output.text).toBe(
      'goog [REDACTED:credential] cookie [REDACTED:credential]',
    );
    for (const secret of [google, cookie]) expect(file.includes(secret)).toBe(false);
  });

  it('redacts well-known key shapes with no configuration: sk-, sk-proj-, sk-ant- and AIza keys', async () => {
    const keys = {
      openai: `sk-proj-${'a1B2'.repeat(8)}`,
      anthropic: `sk-ant-api03-${'x9Y8'.repeat(8)}`,
      google: `AIza${'S'.repeat(35)}`,
    };
    const { stored, file } = await recordOne({
      kind: 'json',
      body: chatCompletion({ text: `${keys.openai} ${keys.anthropic} ${keys.google}` }),
    });
    expect(stored[0]?.response?.output.text).toBe(
      '[REDACTED:openai-key] [REDACTED:anthropic-key] [REDACTED:google-key]',
    );
    for (const secret of Object.values(keys)) expect(file.includes(secret)).toBe(false);
  });

  it('keeps the agent key out of the shadow database and the dashboard state', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'json',
        body: chatCompletion({
          toolCalls: [{ name: 'get_balance', arguments: JSON.stringify({ note: key }) }],
        }),
      },
    ]);
    running.push(upstream);
    const folder = temporaryFolder();
    const policies = join(folder, 'policies.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      policies,
      'policies:\n  - id: args\n    kind: arguments\n    tool: get_balance\n    arguments:\n      note: { pattern: "nothing" }\n',
    );
    const database = join(folder, 'shadow.sqlite');
    const proxy = await startTestProxy(upstream.url, {
      mode: 'passthrough',
      shadow: { ...defaultConfig.shadow, policies, database },
    });
    const client = new OpenAI({ apiKey: key, baseURL: proxy.baseUrl, maxRetries: 0 });
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'balance' }],
    });
    let state = '';
    while (!state.includes('get_balance')) {
      state = await (await fetch(`${proxy.url}/calltape/api/state`)).text();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(state).not.toContain(key);
    expect(state).toContain('[REDACTED:credential]');
    await proxy.close();
    expect(fileBytes(database).includes(key)).toBe(false);
  });
});
