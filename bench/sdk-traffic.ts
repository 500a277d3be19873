/**
 * The traffic of the replay rows that an agent would send through the `openai` package: call `i`
 * asks one question, odd calls stream, and every answer is 2–20 KB of text (a size fixed by `i`),
 * so the bare answer server, the recording and every replayer serve the same bytes.
 */

/** The `chat.completions.create` parameters of call `i`. */
export const sdkRequest = (
  i: number,
): {
  model: string;
  stream: boolean;
  messages: { role: 'user'; content: string }[];
  tools: {
    type: 'function';
    function: { name: string; parameters: Record<string, unknown> };
  }[];
} => ({
  model: 'gpt-4o-mini',
  stream: i % 2 === 1,
  messages: [{ role: 'user', content: `Call ${i}: what is the weather in city #${i}?` }],
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

/** The answer's text for call `i`: between 2 and 20 KB, spread over the range by a fixed stride. */
function answerText(i: number): string {
  const size = 2048 + ((i * 7919) % (18 * 1024));
  const words = `The weather in city #${i} is mild. `;
  return words.repeat(Math.ceil(size / words.length)).slice(0, size);
}

/** The call number a request body asks about, or -1. */
export function callNumber(body: string): number {
  const match = /"Call (\d+):/.exec(body);
  return match?.[1] === undefined ? -1 : Number(match[1]);
}

/** A whole answer's JSON body for call `i`. */
export const wholeAnswer = (i: number): string =>
  JSON.stringify({
    id: `chatcmpl-${i}`,
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answerText(i) },
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 40, completion_tokens: 400, total_tokens: 440 },
  });

/** A streamed answer for call `i`, as its SSE events (the text in 1 KB deltas, then [DONE]). */
export function streamedAnswer(i: number): string[] {
  const text = answerText(i);
  const event = (delta: object, finish: string | null): string =>
    `data: ${JSON.stringify({ id: `chatcmpl-${i}`, object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const events = [event({ role: 'assistant', content: '' }, null)];
  for (let at = 0; at < text.length; at += 1024)
    events.push(event({ content: text.slice(at, at + 1024) }, null));
  events.push(event({}, 'stop'), 'data: [DONE]\n\n');
  return events;
}
