/**
 * A process-protocol agent that answers turn 1 properly (after one model request through
 * OPENAI_BASE_URL, on the official `openai` package) and then misbehaves on turn 2 as
 * `MISBEHAVE` says: `crash` (an error and exit 1), `silent` (never answers), `malformed` (a reply
 * whose text is a number), or `oversize` (a 2 MiB line).
 *
 *   MISBEHAVE=crash node dist/test/support/misbehaving-conversation-agent.js
 */
import { createInterface } from 'node:readline';
import OpenAI from 'openai';

const write = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

if (process.argv[1]?.endsWith('misbehaving-conversation-agent.js')) {
  const client = new OpenAI({ maxRetries: 0 });
  for await (const line of createInterface({ input: process.stdin })) {
    const message = JSON.parse(line) as { type: string; turn: number; text: string };
    if (message.type !== 'user') continue;
    if (message.turn === 1) {
      const completion = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: message.text }],
      });
      write({ type: 'reply', turn: 1, text: completion.choices[0]?.message.content ?? null });
      continue;
    }
    const how = process.env['MISBEHAVE'];
    if (how === 'crash') throw new Error('the order database is gone');
    if (how === 'malformed') write({ type: 'reply', turn: message.turn, text: 42 });
    if (how === 'oversize') write({ type: 'reply', turn: message.turn, text: 'x'.repeat(2 << 20) });
    // silent: says nothing, and keeps reading.
  }
}
