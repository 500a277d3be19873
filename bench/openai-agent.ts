/**
 * The agent of the `calltape test` benchmark: one request through the `openai` package, as a
 * module (`agent.module: …/openai-agent.js#run`, called per case in a worker) or as a command
 * (`node …/openai-agent.js "<prompt>"`, a process per case). The same code either way, so the two
 * rows differ only in how calltape starts the agent.
 */
import OpenAI from 'openai';
import { fileURLToPath } from 'node:url';

/** One case: asks the model once (the SDK reads OPENAI_BASE_URL and OPENAI_API_KEY, the case's). */
export async function run({ prompt }: { readonly prompt: string }): Promise<string> {
  const client = new OpenAI({ maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: process.env['CALLTAPE_MODEL'] ?? 'bench',
    messages: [{ role: 'user', content: prompt }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, unit: { type: 'string' } },
          },
        },
      },
    ],
  });
  return completion.choices[0]?.finish_reason ?? '';
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await run({ prompt: process.argv[2] ?? '' });
