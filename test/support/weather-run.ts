import OpenAI from 'openai';
import { scriptedWeatherModel } from '../../examples/scripted-weather-model.js';
import { runAgent } from '../../examples/weather-agent.js';
import { startScriptedUpstream } from './scripted-upstream.js';
import { startTestProxy } from './test-proxy.js';

export const weatherQuestion =
  'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.';

/** Runs the weather agent once through an in-process proxy on `cassette` in `mode`; resolves with its answer, or the error it got. */
export async function agentRun(
  cassette: string,
  mode: 'record' | 'replay',
  question = weatherQuestion,
  overrides: Parameters<typeof startTestProxy>[1] = {},
): Promise<string> {
  const upstream = await startScriptedUpstream(scriptedWeatherModel);
  const proxy = await startTestProxy(upstream.url, { mode, cassette, ...overrides });
  try {
    return await runAgent(
      question,
      new OpenAI({ apiKey: 'sk-test-record-0123456789', baseURL: proxy.baseUrl, maxRetries: 0 }),
    ).catch((error: unknown) => `error: ${(error as Error).message}`);
  } finally {
    await proxy.close();
    await upstream.close();
  }
}
