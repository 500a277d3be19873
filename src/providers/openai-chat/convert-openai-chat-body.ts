import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, parseJson, type JsonObject } from '../json-access.js';
import { assembleOpenAiChatStream } from './assemble-openai-chat-stream.js';

/**
 * Re-expresses a recorded Chat Completions answer in the other form, so a recording made
 * without streaming can answer a streaming request and vice versa (`match.streamAgnostic`).
 * Every field of the recording that the other form has is kept.
 */
export function toStreamBody(completionText: string, includeUsage: boolean): string | undefined {
  const parsed = parseJson(completionText);
  const completion = parsed.ok ? asObject(parsed.value) : undefined;
  if (!completion) return undefined;
  const { choices, usage, object: _object, ...meta } = completion;
  const chunk = (chunkChoices: JsonValue[], extra: JsonObject = {}): string =>
    `data: ${JSON.stringify({ ...meta, object: 'chat.completion.chunk', choices: chunkChoices, ...extra })}\n\n`;
  const events: string[] = [];
  for (const choiceValue of asArray(choices)) {
    const choice = asObject(choiceValue) ?? {};
    const message = asObject(choice['message']) ?? {};
    const base = { index: choice['index'] ?? 0, logprobs: null };
    events.push(
      chunk([
        {
          ...base,
          delta: {
            role: 'assistant',
            content: message['content'] ?? null,
            refusal: message['refusal'] ?? null,
          },
          finish_reason: null,
        },
      ]),
    );
    asArray(message['tool_calls']).forEach((call, index) => {
      const toolCall = asObject(call) ?? {};
      events.push(
        chunk([
          {
            ...base,
            delta: {
              tool_calls: [
                {
                  index,
                  id: toolCall['id'] ?? null,
                  type: 'function',
                  function: toolCall['function'] ?? null,
                },
              ],
            },
            finish_reason: null,
          },
        ]),
      );
    });
    events.push(chunk([{ ...base, delta: {}, finish_reason: choice['finish_reason'] ?? null }]));
  }
  if (includeUsage && usage !== undefined) events.push(chunk([], { usage }));
  events.push('data: [DONE]\n\n');
  return events.join('');
}

/** A recorded stream as the whole `chat.completion` object a non-streaming request gets. */
export function toCompletionBody(streamText: string): string | undefined {
  const events = decodeSse([new TextEncoder().encode(streamText)]);
  const assembled = assembleOpenAiChatStream(events, 'finished');
  if (assembled.status !== 'complete' || !assembled.response) return undefined;
  const first = events
    .map((event) => parseJson(event.data))
    .find((parsed) => parsed.ok && asObject(parsed.value)?.['choices'] !== undefined);
  const {
    choices: _choices,
    usage: _usage,
    object: _object,
    ...meta
  } = (first?.ok ? asObject(first.value) : undefined) ?? {};
  const usageEvent = events
    .map((event) => parseJson(event.data))
    .find((parsed) => parsed.ok && asObject(asObject(parsed.value)?.['usage']) !== undefined);
  const usage = usageEvent?.ok ? asObject(usageEvent.value)?.['usage'] : undefined;
  const response = assembled.response;
  const outputs = [response.output, ...response.alternatives];
  return JSON.stringify({
    ...meta,
    object: 'chat.completion',
    choices: outputs.map((output, index) => ({
      index,
      message: {
        role: 'assistant',
        content: output.text.length > 0 || output.toolCalls.length === 0 ? output.text : null,
        refusal: output.refusal ?? null,
        ...(output.toolCalls.length > 0
          ? {
              tool_calls: output.toolCalls.map((call) => ({
                id: call.id ?? null,
                type: 'function',
                function: { name: call.name, arguments: call.argumentsRaw },
              })),
            }
          : {}),
      },
      logprobs: null,
      finish_reason: output.finishReason.raw ?? null,
    })),
    ...(usage !== undefined ? { usage } : {}),
  });
}
