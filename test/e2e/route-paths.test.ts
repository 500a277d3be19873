import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { createLogger } from '../../src/logger.js';
import { anthropicMessage } from '../support/anthropic-messages-events.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const apiKey = 'sk-ant-test-key-0123456789abcdef';
const question = {
  model: 'claude-sonnet-4-5',
  max_tokens: 64,
  messages: [{ role: 'user' as const, content: 'Hello there' }],
};

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream((request) =>
    request.url.includes('messages')
      ? { kind: 'json', body: anthropicMessage({ text: 'Hi!' }) }
      : { kind: 'json', body: chatCompletion({ text: 'Hi!' }) },
  );
});
afterAll(() => upstream.close());

describe('Anthropic Messages at /messages (a base URL ending in /v1, as the Vercel AI SDK sets it)', () => {
  // Regression (issue 16): only /v1/messages was captured, so nothing was recorded and replay missed.
  it('issue-16: records POST /messages as /v1/messages, and a recording made through either path replays through the other', async () => {
    const cassette = join(temporaryFolder(), 'messages.sqlite');
    const recorder = await startTestProxy('http://127.0.0.1:1', {
      anthropicUpstream: upstream.url,
      cassette,
      mode: 'record',
    });
    const client = new Anthropic({ apiKey, baseURL: recorder.url, maxRetries: 0 });
    // The SDK's own request method, at the path the AI SDK posts to.
    const answer = await client.post<Anthropic.Message>('/messages', { body: question });
    expect(answer.content).toMatchObject([{ type: 'text', text: 'Hi!' }]);
    expect(upstream.received.at(-1)?.url).toBe('/v1/messages');
    await recorder.close();
    const store = new SqliteStore(cassette, { readonly: true });
    expect(
      store.interactions().map((interaction) => [interaction.path, interaction.provider]),
    ).toEqual([['/v1/messages', 'anthropic-messages']]);
    store.close();

    for (const send of [
      (offline: Anthropic) => offline.messages.create(question),
      (offline: Anthropic) => offline.post<Anthropic.Message>('/messages', { body: question }),
    ]) {
      const replayer = await startTestProxy('http://127.0.0.1:1', {
        anthropicUpstream: 'http://127.0.0.1:1',
        cassette,
        mode: 'replay',
      });
      expect(await send(new Anthropic({ apiKey, baseURL: replayer.url, maxRetries: 0 }))).toEqual(
        answer,
      );
      expect(replayer.stats).toMatchObject({ hits: 1, misses: 0 });
      await replayer.close();
    }
  });
});

describe('near-miss routes: a base URL off by a /v1', () => {
  it('issue-16: warns in the log, and a replay miss says which base URL to set', async () => {
    const lines: string[] = [];
    const cassette = join(temporaryFolder(), 'near.sqlite');
    const recorder = await startTestProxy(
      upstream.url,
      { cassette, mode: 'record' },
      { logger: createLogger('error', (line) => lines.push(line)) },
    );
    const noVersion = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: recorder.url,
      maxRetries: 0,
    });
    await noVersion.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await noVersion.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'again' }],
    });
    expect(lines).toEqual([
      `calltape warning: calltape: POST /chat/completions is not one of calltape's routes (/v1/chat/completions, /openai/…/chat/completions, /v1/responses, /openai/…/responses, /v1/messages, /api/chat, /model/{modelId}/converse, /model/{modelId}/converse-stream, /model/{modelId}/invoke, /model/{modelId}/invoke-with-response-stream): the agent's base URL looks off by a /v1; set OPENAI_BASE_URL=${recorder.url}/v1`,
    ]);
    await recorder.close();

    const replayer = await startTestProxy('http://127.0.0.1:1', {
      anthropicUpstream: 'http://127.0.0.1:1',
      cassette,
      mode: 'replay',
    });
    const openAi = await new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: replayer.url,
      maxRetries: 0,
    }).responses
      .create({ model: 'm', input: 'hi' })
      .catch((error: unknown) => error);
    expect(openAi).toBeInstanceOf(OpenAI.NotFoundError);
    expect((openAi as Error).message).toContain(`set OPENAI_BASE_URL=${replayer.url}/v1`);
    const anthropic = await new Anthropic({
      apiKey,
      baseURL: `${replayer.url}/v1`,
      maxRetries: 0,
    }).messages
      .create(question)
      .catch((error: unknown) => error);
    expect(anthropic).toBeInstanceOf(Anthropic.NotFoundError);
    expect((anthropic as Error).message).toContain(
      `POST /v1/v1/messages is not one of calltape's routes`,
    );
    expect((anthropic as Error).message).toContain(`set ANTHROPIC_BASE_URL=${replayer.url}`);
    await replayer.close();
  });
});
