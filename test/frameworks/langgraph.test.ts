import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { describeFrameworks, type Conversing } from './framework-contract.js';

/**
 * A LangGraph ReAct agent over `model`, keeping the conversation in a checkpointer thread.
 * Streamed, it reads tokens with `streamMode: 'messages'`, the way a chat UI does; that is also
 * how `streaming: true` stays offline (docs/frameworks.md: `invoke()` on a streaming ChatOpenAI
 * fetches a tokenizer from the network on every call).
 */
function langGraphAgent(
  model: BaseChatModel,
  streamed: boolean,
  getWeather: (city: string) => string,
): Conversing {
  const weather = tool(({ city }) => getWeather(city), {
    name: 'get_weather',
    description: 'Current weather in a city',
    schema: z.object({ city: z.string() }),
  });
  return {
    async converse(turns, { system }) {
      const agent = createReactAgent({
        llm: model,
        tools: [weather],
        checkpointer: new MemorySaver(),
        ...(system === undefined ? {} : { prompt: system }),
      });
      const config = { configurable: { thread_id: 'weather' } };
      const answers: string[] = [];
      for (const turn of turns) {
        const input = { messages: [{ role: 'user', content: turn }] };
        let messages: BaseMessage[] = [];
        if (streamed) {
          for await (const [mode, payload] of await agent.stream(input, {
            ...config,
            streamMode: ['messages', 'values'],
          }))
            if (mode === 'values') messages = payload.messages;
        } else messages = (await agent.invoke(input, config)).messages;
        answers.push(messages.at(-1)?.text ?? '');
      }
      return answers;
    },
  };
}

describeFrameworks('LangGraph JS', [
  {
    name: 'ChatOpenAI (Chat Completions)',
    wire: 'openai-chat',
    makeAgent: (getWeather) =>
      langGraphAgent(new ChatOpenAI({ model: 'gpt-4o-mini', maxRetries: 0 }), false, getWeather),
  },
  {
    name: 'ChatOpenAI (Chat Completions, streaming: true, streamMode messages)',
    wire: 'openai-chat',
    makeAgent: (getWeather) =>
      langGraphAgent(
        new ChatOpenAI({ model: 'gpt-4o-mini', streaming: true, maxRetries: 0 }),
        true,
        getWeather,
      ),
  },
  {
    name: 'ChatOpenAI (Responses)',
    wire: 'openai-responses',
    makeAgent: (getWeather) =>
      langGraphAgent(
        new ChatOpenAI({ model: 'gpt-4o-mini', useResponsesApi: true, maxRetries: 0 }),
        false,
        getWeather,
      ),
  },
  {
    name: 'ChatAnthropic (streamed)',
    wire: 'anthropic-messages',
    makeAgent: (getWeather) =>
      langGraphAgent(
        new ChatAnthropic({ model: 'claude-sonnet-4-5', streaming: true, maxRetries: 0 }),
        true,
        getWeather,
      ),
  },
  {
    // ChatGoogleGenerativeAI reads no base URL from the environment: `baseUrl` is the Gemini API origin.
    name: 'ChatGoogleGenerativeAI (@langchain/google-genai)',
    wire: 'gemini',
    makeAgent: (getWeather) =>
      langGraphAgent(
        new ChatGoogleGenerativeAI({
          model: 'gemini-3-flash-preview',
          apiKey: process.env['GEMINI_API_KEY'] ?? '',
          baseUrl: process.env['GOOGLE_GEMINI_BASE_URL'] ?? '',
          maxRetries: 0,
        }),
        false,
        getWeather,
      ),
  },
]);
