/**
 * An agent written the way a new user writes one: the official `openai` package and a tool loop
 * that looks something up before it acts. It knows nothing about calltape; OPENAI_BASE_URL decides
 * where it talks. `LOOKUP_AGENT_TOOLS` picks its tool set: `orders` (get_order, issue_refund,
 * send_email — the README's refund case) or `weather` (find_city, get_weather — `calltape init`'s
 * example suite). `LOOKUP_AGENT_SYSTEM`, when set, is its system prompt. The prompt is its last
 * argument.
 *
 *   node dist/test/support/lookup-then-act-agent.js "Refund order A-17, it arrived broken"
 */
import OpenAI from 'openai';

type Tool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

const tool = (name: string, properties: Record<string, object>, required: string[]): Tool => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties, required } },
});

/** The tool sets, each with its tools' local answers (nothing here has a real side effect). */
export const toolSets = {
  orders: {
    tools: [
      tool('get_order', { order_id: { type: 'string' } }, ['order_id']),
      tool('issue_refund', { order_id: { type: 'string' }, reason: { type: 'string' } }, [
        'order_id',
      ]),
      tool(
        'send_email',
        { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
        ['to', 'subject'],
      ),
    ],
    answer: (name: string): unknown =>
      name === 'get_order'
        ? { order_id: 'A-17', status: 'delivered', email: 'ada@example.com', total: 42 }
        : name === 'issue_refund'
          ? { refund_id: 'R-1', status: 'issued' }
          : { status: 'sent' },
  },
  weather: {
    tools: [
      tool('find_city', { name: { type: 'string' } }, ['name']),
      tool(
        'get_weather',
        { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        ['city'],
      ),
    ],
    answer: (name: string): unknown =>
      name === 'find_city' ? { name: 'Paris', country: 'FR' } : { temperature: 14 },
  },
} as const;

async function run(prompt: string, set: (typeof toolSets)[keyof typeof toolSets]): Promise<string> {
  const client = new OpenAI({ maxRetries: 0 });
  // A system prompt the user edits (LOOKUP_AGENT_SYSTEM): the change calltape exists to judge.
  const system = process.env['LOOKUP_AGENT_SYSTEM'];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    { role: 'user', content: prompt },
  ];
  for (let step = 0; step < 8; step++) {
    const completion = await client.chat.completions.create({
      model: process.env['CALLTAPE_MODEL'] ?? 'gpt-4o-mini',
      messages,
      tools: [...set.tools],
    });
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('the model returned no choice');
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return message.content ?? '';
    for (const call of calls)
      if (call.type === 'function')
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify(set.answer(call.function.name)),
        });
  }
  throw new Error('the agent did not finish within 8 steps');
}

if (process.argv[1]?.endsWith('lookup-then-act-agent.js')) {
  const name = process.env['LOOKUP_AGENT_TOOLS'] === 'weather' ? 'weather' : 'orders';
  process.stdout.write(`${await run(process.argv.at(-1) ?? '', toolSets[name])}\n`);
}
