import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/config.js';
import { createLogger } from '../src/logger.js';
import { chatCompletion } from './support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from './support/scripted-upstream.js';
import { startTestProxy } from './support/test-proxy.js';

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(() => ({ kind: 'json', body: chatCompletion({}) }));
});
afterAll(() => upstream.close());

async function ask(baseURL: string, content: string): Promise<void> {
  const client = new OpenAI({ baseURL, apiKey: 'sk-test', maxRetries: 0 });
  await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
}

describe('auto mode logs re-keyed recordings on every request (regression)', () => {
  it('announces re-keying once per opening of the cassette, however many requests await it', async () => {
    const recording = await startTestProxy(upstream.url, { mode: 'record' });
    await ask(recording.baseUrl, 'weather in Paris?');
    await recording.close();
    // Opened under rules that key requests differently: the store worker re-keys the recording.
    const lines: string[] = [];
    const proxy = await startTestProxy(
      upstream.url,
      {
        mode: 'auto',
        cassette: recording.config.cassette,
        match: {
          ...defaultConfig.match,
          ignorePaths: [...defaultConfig.match.ignorePaths, 'model'],
        },
      },
      { logger: createLogger('info', (line) => lines.push(line)) },
    );
    try {
      await Promise.all([ask(proxy.baseUrl, 'one'), ask(proxy.baseUrl, 'two')]);
      await ask(proxy.baseUrl, 'weather in Paris?');
    } finally {
      await proxy.close();
    }
    expect(lines.filter((line) => line.includes('re-keyed 1 recording(s)'))).toHaveLength(1);
  });
});
