import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import {
  generateText,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type ModelMessage,
} from 'ai';
import { z } from 'zod';
import { describeFrameworks, type Conversing } from './framework-contract.js';

/**
 * A Vercel AI SDK agent loop (tools with `execute`, up to five steps). Providers are created per
 * agent, not imported as the `openai` / `anthropic` singletons, because those read the base URL
 * once at import and each scenario here has its own proxy.
 */
function aiSdkAgent(
  model: LanguageModel,
  streamed: boolean,
  getWeather: (city: string) => string,
): Conversing {
  const tools = {
    get_weather: tool({
      description: 'Current weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => Promise.resolve(getWeather(city)),
    }),
  };
  return {
    async converse(turns, { system }) {
      const messages: ModelMessage[] = [];
      const answers: string[] = [];
      for (const turn of turns) {
        messages.push({ role: 'user', content: turn });
        const options = {
          model,
          tools,
          messages,
          stopWhen: stepCountIs(5),
          maxRetries: 0,
          ...(system === undefined ? {} : { system }),
        };
        const result = streamed ? streamText(options) : await generateText(options);
        messages.push(...(await result.response).messages);
        answers.push(await result.text);
      }
      return answers;
    },
  };
}

describeFrameworks('Vercel AI SDK', [
  {
    name: '@ai-sdk/openai (Responses, generateText)',
    wire: 'openai-responses',
    makeAgent: (getWeather) => aiSdkAgent(createOpenAI()('gpt-4o-mini'), false, getWeather),
  },
  {
    name: '@ai-sdk/openai (Chat Completions, streamText)',
    wire: 'openai-chat',
    makeAgent: (getWeather) => aiSdkAgent(createOpenAI().chat('gpt-4o-mini'), true, getWeather),
  },
  {
    name: '@ai-sdk/anthropic (streamText)',
    wire: 'anthropic-messages',
    makeAgent: (getWeather) => aiSdkAgent(createAnthropic()('claude-sonnet-4-5'), true, getWeather),
  },
  {
    // The Google provider reads no base URL from the environment: `baseURL` is its Gemini API root, version included.
    name: '@ai-sdk/google (streamText)',
    wire: 'gemini',
    makeAgent: (getWeather) =>
      aiSdkAgent(
        createGoogleGenerativeAI({
          baseURL: `${process.env['GOOGLE_GEMINI_BASE_URL'] ?? ''}/v1beta`,
          apiKey: process.env['GEMINI_API_KEY'] ?? '',
        })('gemini-3-flash-preview'),
        true,
        getWeather,
      ),
  },
  {
    name: '@ai-sdk/google (generateText)',
    wire: 'gemini',
    makeAgent: (getWeather) =>
      aiSdkAgent(
        createGoogleGenerativeAI({
          baseURL: `${process.env['GOOGLE_GEMINI_BASE_URL'] ?? ''}/v1beta`,
          apiKey: process.env['GEMINI_API_KEY'] ?? '',
        })('gemini-3-flash-preview'),
        false,
        getWeather,
      ),
  },
]);
