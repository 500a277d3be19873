/**
 * An agent's LLM calls for the replay rows: the `openai` package sends `sdk-traffic` calls
 * BENCH_FIRST .. BENCH_FIRST + BENCH_CALLS - 1 one after another to OPENAI_BASE_URL (set by the
 * bench or by `calltape replay`), reading every answer whole. Exits 1 when an answer is not the
 * one recorded.
 */
import OpenAI from 'openai';
import { sdkRequest } from './sdk-traffic.js';

/** Sends calls `first` .. `first + count - 1` through `client`; false when one came back wrong. */
export async function sendCalls(client: OpenAI, first: number, count: number): Promise<boolean> {
  let right = true;
  for (let i = first; i < first + count; i++) {
    const request = sdkRequest(i);
    const marker = `city #${i} is mild`;
    if (request.stream) {
      let text = '';
      for await (const chunk of await client.chat.completions.create({ ...request, stream: true }))
        text += chunk.choices[0]?.delta.content ?? '';
      right &&= text.includes(marker);
    } else {
      const answer = await client.chat.completions.create({ ...request, stream: false });
      right &&= answer.choices[0]?.message.content?.includes(marker) === true;
    }
  }
  return right;
}

if (process.argv[1]?.endsWith('sdk-client.js')) {
  const client = new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'sk-bench', maxRetries: 0 });
  const right = await sendCalls(
    client,
    Number(process.env['BENCH_FIRST'] ?? 0),
    Number(process.env['BENCH_CALLS'] ?? 1),
  );
  process.exitCode = right ? 0 : 1;
}
