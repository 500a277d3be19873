import { createAnthropic } from '@ai-sdk/anthropic-v5';
import { Agent } from '@mastra/core/agent';
import type { MessageInput } from '@mastra/core/agent/message-list';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { describeFrameworks, type Conversing } from './framework-contract.js';

type MastraModel = ConstructorParameters<typeof Agent>[0]['model'];

/** A Mastra agent; the conversation is passed back in whole each turn (no memory store). */
function mastraAgent(model: MastraModel, getWeather: (city: string) => string): Conversing {
  const weather = createTool({
    id: 'get_weather',
    description: 'Current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ context }) => Promise.resolve(getWeather(context.city)),
  });
  return {
    async converse(turns, { system }) {
      const agent = new Agent({
        name: 'weather',
        instructions: system ?? '',
        model,
        tools: { get_weather: weather },
      });
      const messages: MessageInput[] = [];
      const answers: string[] = [];
      for (const turn of turns) {
        messages.push({ role: 'user', content: turn });
        const result = await agent.generate(messages, { maxSteps: 5 });
        messages.push(...(result.response.messages ?? []));
        answers.push(result.text);
      }
      return answers;
    },
  };
}

describeFrameworks('Mastra', [
  // The model router reads OPENAI_BASE_URL when it first resolves a model.
  {
    name: 'model router, openai/ (Responses)',
    wire: 'openai-responses',
    makeAgent: (getWeather) => mastraAgent('openai/gpt-4o-mini', getWeather),
  },
  // The router's anthropic/ models read no base-URL variable, and Mastra 0.24 takes AI SDK v5 models only: an @ai-sdk/anthropic 2.x model, its base URL with /v1.
  {
    name: '@ai-sdk/anthropic 2.x model (Messages)',
    wire: 'anthropic-messages',
    makeAgent: (getWeather) =>
      mastraAgent(
        createAnthropic({ baseURL: `${process.env['ANTHROPIC_BASE_URL'] ?? ''}/v1` })(
          'claude-sonnet-4-5',
        ),
        getWeather,
      ),
  },
]);
