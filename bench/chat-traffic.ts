/**
 * The Chat Completions traffic the proxy benches send and answer: the load generator's request
 * bodies, the scripted upstream's whole answers and stream events, so every bench that builds
 * rounds of its own (the store bench) builds the same ones.
 */

/** The request every bench sends: one user message and one tool. */
export const streamBody = JSON.stringify({
  model: 'gpt-4o-mini',
  stream: true,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
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
export const plainBody = streamBody.replace('"stream":true', '"stream":false');

/** A whole Chat Completions answer calling get_weather once per city. */
export const completionFor = (id: string, cities: readonly string[]): string =>
  JSON.stringify({
    id,
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: cities.map((city, index) => ({
            id: `call_${index + 1}`,
            type: 'function',
            function: { name: 'get_weather', arguments: JSON.stringify({ city, unit: 'celsius' }) },
          })),
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 120,
      completion_tokens: 20 * cities.length,
      total_tokens: 120 + 20 * cities.length,
    },
  });

/**
 * Event `n` of a streamed answer of `events` events before its end, written at `t` (wall-clock
 * ms, carried in the event): a get_weather call whose argument deltas add up to valid JSON, as a
 * real model's do ({"city":"ab…ab"}). Event `events` is the finish and `[DONE]`.
 */
export function chatStreamEvent(n: number, events: number, t: number): string {
  if (n === events)
    return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`;
  const piece = n === 1 ? '{"city":"' : n === events - 1 ? '"}' : 'ab';
  const fragment =
    n === 0
      ? {
          index: 0,
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        }
      : { index: 0, function: { arguments: piece } };
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', t, choices: [{ index: 0, delta: { tool_calls: [fragment] }, finish_reason: null }] })}\n\n`;
}
