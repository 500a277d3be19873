/**
 * An agent module for calltape's tests (docs/reference/agent-module.md), run compiled from
 * dist/test/support/module-agent.js: one case per call of `run`.
 */
import OpenAI from 'openai';

/** What calltape passes an agent module per case. */
interface AgentInput {
  readonly prompt: string;
  readonly caseId: string;
  readonly env: { readonly [name: string]: string };
}

/** Asks the model once with the case's prompt, through the case's session, and says what it saw. */
export async function run({ prompt, caseId, env }: AgentInput): Promise<object> {
  // No options: the SDK reads OPENAI_BASE_URL and OPENAI_API_KEY, which are the case's during the call.
  const client = new OpenAI({ maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: env['CALLTAPE_MODEL'] ?? 'gpt-4o-mini',
    messages: [{ role: 'user', content: prompt }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ],
  });
  const leftByEarlierCase = process.env['LEFT_BY_A_CASE'] ?? null;
  // What a careless agent does: the next case must not see it.
  process.env['LEFT_BY_A_CASE'] = caseId;
  console.log(`case ${caseId} asked the model`);
  const call = completion.choices[0]?.message.tool_calls?.[0];
  return {
    caseId,
    caseIdInEnv: process.env['CALLTAPE_CASE_ID'],
    baseUrl: process.env['OPENAI_BASE_URL'],
    givenBaseUrl: env['OPENAI_BASE_URL'],
    leftByEarlierCase,
    tool: call?.type === 'function' ? call.function.name : null,
  };
}

export function throws(): Promise<never> {
  return Promise.reject(new Error('the agent module gave up'));
}

export const notAFunction = 1;

/** Never returns for the first case (a stuck agent); answers as `run` for the others. */
export function hangsOnFirst(input: AgentInput): Promise<object> {
  return input.caseId === 'case-0' ? new Promise<never>(() => undefined) : run(input);
}
