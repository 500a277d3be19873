import { Agent, OpenAIProvider, Runner, tool, user, type AgentInputItem } from '@openai/agents';
import { z } from 'zod';
import { describeFrameworks, type Conversing } from './framework-contract.js';

/**
 * An Agents SDK agent. Its provider is made per agent because a provider keeps the client it
 * first built (from OPENAI_BASE_URL), and each scenario here has its own proxy; a real agent
 * runs once per `calltape record --` and needs no such care.
 */
function agentsSdkAgent(
  useResponses: boolean,
  streamed: boolean,
  getWeather: (city: string) => string,
): Conversing {
  const weather = tool({
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => getWeather(city),
  });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ useResponses }),
    tracingDisabled: true,
  });
  return {
    async converse(turns, { system }) {
      const agent = new Agent({
        name: 'weather',
        model: 'gpt-4o-mini',
        tools: [weather],
        ...(system === undefined ? {} : { instructions: system }),
      });
      const runStreamed = async (input: AgentInputItem[]) => {
        const result = await runner.run(agent, input, { stream: true });
        await result.completed;
        return result;
      };
      const answers: string[] = [];
      let history: AgentInputItem[] = [];
      for (const turn of turns) {
        const input = [...history, user(turn)];
        const result = streamed ? await runStreamed(input) : await runner.run(agent, input);
        history = result.history;
        answers.push(String(result.finalOutput));
      }
      return answers;
    },
  };
}

describeFrameworks('OpenAI Agents SDK', [
  {
    name: 'Responses (streamed)',
    wire: 'openai-responses',
    makeAgent: (getWeather) => agentsSdkAgent(true, true, getWeather),
  },
  {
    name: 'Chat Completions',
    wire: 'openai-chat',
    makeAgent: (getWeather) => agentsSdkAgent(false, false, getWeather),
  },
]);
