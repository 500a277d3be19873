import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson } from '../json-access.js';
import { isHostedResult, isHostedUse } from './anthropic-hosted-calls.js';
import { assembleAnthropicStream } from './assemble-anthropic-stream.js';

const sse = (type: string, data: Record<string, JsonValue>): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** A whole Messages response re-expressed as the Messages event stream, every block and field kept. */
export function toAnthropicStream(messageText: string): string | undefined {
  const parsed = parseJson(messageText);
  const message = parsed.ok ? asObject(parsed.value) : undefined;
  if (!message || message['type'] !== 'message') return undefined;
  const { content, stop_reason: stopReason, stop_sequence: stopSequence, usage, ...meta } = message;
  const usageObject = asObject(usage) ?? {};
  const events = [
    sse('message_start', {
      message: {
        ...meta,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usageObject, output_tokens: 1 },
      },
    }),
  ];
  asArray(content).forEach((value, index) => {
    const block = asObject(value) ?? {};
    if (block['type'] === 'text') {
      events.push(sse('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      events.push(
        sse('content_block_delta', {
          index,
          delta: { type: 'text_delta', text: asString(block['text']) ?? '' },
        }),
      );
    } else if (block['type'] === 'tool_use' || isHostedUse(asString(block['type']))) {
      events.push(sse('content_block_start', { index, content_block: { ...block, input: {} } }));
      events.push(
        sse('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input'] ?? {}) },
        }),
      );
    } else {
      events.push(sse('content_block_start', { index, content_block: block }));
    }
    events.push(sse('content_block_stop', { index }));
  });
  events.push(
    sse('message_delta', {
      delta: { stop_reason: stopReason ?? null, stop_sequence: stopSequence ?? null },
      usage: { output_tokens: asObject(usage)?.['output_tokens'] ?? 0 },
    }),
  );
  events.push(sse('message_stop', {}));
  return events.join('');
}

/** A finished Messages event stream as the whole response a non-streaming request gets. */
export function toAnthropicMessage(streamText: string): string | undefined {
  const events = decodeSse([new TextEncoder().encode(streamText)]);
  const assembled = assembleAnthropicStream(events, 'finished');
  if (assembled.status !== 'complete' || !assembled.response) return undefined;
  const start = events
    .map((event) => parseJson(event.data))
    .find((parsed) => parsed.ok && asObject(parsed.value)?.['type'] === 'message_start');
  const meta = (start?.ok ? asObject(asObject(start.value)?.['message']) : undefined) ?? {};
  const output = assembled.response.output;
  const content: JsonValue[] = [];
  if (output.text !== '') content.push({ type: 'text', text: output.text });
  // Hosted calls go back as they came: the call block, then the result block the stream carried whole.
  const results = events
    .map((event) => parseJson(event.data))
    .map((parsed) => (parsed.ok ? asObject(parsed.value) : undefined))
    .filter((data) => data?.['type'] === 'content_block_start')
    .map((data) => asObject(data?.['content_block']) ?? {})
    .filter((block) => isHostedResult(asString(block['type'])));
  for (const call of output.hostedCalls ?? []) {
    if (!call.arguments.ok) return undefined;
    content.push({
      type: call.kind,
      id: call.id ?? '',
      name: call.name,
      input: call.arguments.value,
      ...(call.server !== undefined ? { server_name: call.server } : {}),
    });
    content.push(...results.filter((block) => block['tool_use_id'] === call.id));
  }
  for (const call of output.toolCalls) {
    if (!call.arguments.ok) return undefined;
    content.push({
      type: 'tool_use',
      id: call.id ?? '',
      name: call.name,
      input: call.arguments.value,
    });
  }
  const usage = assembled.response.usage;
  return JSON.stringify({
    ...meta,
    content,
    stop_reason: output.finishReason.raw ?? null,
    stop_sequence: meta['stop_sequence'] ?? null,
    usage: {
      ...asObject(meta['usage']),
      ...(usage?.outputTokens !== undefined ? { output_tokens: usage.outputTokens } : {}),
    },
  });
}
