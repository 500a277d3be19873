/**
 * A small tool-using agent written the way users write theirs: the official `openai` package,
 * a tool loop, streaming. It knows nothing about calltape; OPENAI_BASE_URL decides where it talks.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:4545/v1 OPENAI_API_KEY=sk-... node dist/examples/weather-agent.js "Weather in Paris and Tokyo?"
 */
import OpenAI from 'openai';

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'send_email',
      description: 'Send an email to a recipient',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'string', format: 'email' },
          subject: { type: 'string' },
          body: { type: 'string' },
        },
        required: ['to', 'subject', 'body'],
        additionalProperties: false,
      },
    },
  },
];

/** The agent's real tool implementations (here: canned, so the example runs anywhere). */
function runTool(name: string, args: Record<string, unknown>): unknown {
  if (name === 'get_weather')
    return {
      city: args['city'],
      temperature: String(args['city']).startsWith('Tokyo') ? 18 : 12,
      unit: args['unit'] ?? 'celsius',
      conditions: 'cloudy',
    };
  if (name === 'send_email') return { sent: true, to: args['to'] };
  return { error: `unknown tool ${name}` };
}

export async function runAgent(
  question: string,
  client = new OpenAI({ maxRetries: 0 }),
): Promise<string> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a concise assistant. Use tools when they help.' },
    { role: 'user', content: question },
  ];
  for (let step = 0; step < 6; step++) {
    const stream = client.chat.completions.stream({
      model: process.env['AGENT_MODEL'] ?? 'gpt-4o-mini',
      messages,
      tools,
      parallel_tool_calls: true,
    });
    const message = (await stream.finalChatCompletion()).choices[0]?.message;
    if (!message) throw new Error('the model returned no choice');
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return message.content ?? '';
    for (const call of calls) {
      if (call.type !== 'function') continue;
      const result = runTool(
        call.function.name,
        JSON.parse(call.function.arguments) as Record<string, unknown>,
      );
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error('the agent did not finish within 6 steps');
}

if (process.argv[1]?.endsWith('weather-agent.js')) {
  const answer = await runAgent(
    process.argv[2] ??
      'What is the weather in Paris and Tokyo? Email the summary to ops@example.com.',
  );
  process.stdout.write(`${answer}\n`);
}
