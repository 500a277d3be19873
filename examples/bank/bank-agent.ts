/**
 * A small banking agent written the way users write theirs: the official `openai` package and a
 * tool loop. It knows nothing about calltape; OPENAI_BASE_URL decides where it talks.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:4545/v1 OPENAI_API_KEY=sk-... node dist/examples/bank/bank-agent.js "What is my savings balance?"
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';

const tools = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../../examples/bank/tools.json', import.meta.url)),
    'utf8',
  ),
) as OpenAI.Chat.Completions.ChatCompletionTool[];

export const systemPrompt =
  'You are a careful banking assistant. Use the tools to answer; never move money unless the customer asked for that exact transfer.';

/** The agent's real tools. execute_transfer has a side effect (here: a ledger file) that tests must never trigger. */
function runTool(name: string, args: Record<string, unknown>): unknown {
  if (name === 'get_balance')
    return {
      account_type: args['account_type'],
      balance: args['account_type'] === 'savings' ? 5120.4 : 842.17,
      currency: 'USD',
    };
  if (name === 'search_transactions')
    return { matches: [{ date: '2026-11-02', description: String(args['query']), amount: 54.99 }] };
  if (name === 'execute_transfer') {
    appendFileSync(join(tmpdir(), 'calltape-bank-ledger.txt'), `${JSON.stringify(args)}\n`);
    return { status: 'sent', reference: 'TX-REAL' };
  }
  return { error: `unknown tool ${name}` };
}

export async function runBankAgent(
  request: string,
  client = new OpenAI({ maxRetries: 0 }),
): Promise<string> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: request },
  ];
  for (let step = 0; step < 6; step++) {
    const completion = await client.chat.completions.create({
      model: process.env['CALLTAPE_MODEL'] ?? 'gpt-4o-mini',
      messages,
      tools,
    });
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('the model returned no choice');
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return message.content ?? '';
    for (const call of calls) {
      if (call.type !== 'function') continue;
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(
          runTool(
            call.function.name,
            JSON.parse(call.function.arguments) as Record<string, unknown>,
          ),
        ),
      });
    }
  }
  throw new Error('the agent did not finish within 6 steps');
}

if (process.argv[1]?.endsWith('bank-agent.js')) {
  process.stdout.write(`${await runBankAgent(process.argv[2] ?? 'What is my savings balance?')}\n`);
}
