import type { ServerSentEvent } from '../../sse/decode-sse.js';
import type { ResponseSummary, ToolCall, Usage } from '../../trace/trace.js';
import { asObject, asString, parseJson, type JsonObject } from '../json-access.js';
import type { ParsedResponse, ResponseEnding } from '../provider-adapter.js';
import { hostedCalls, isHostedResult, isHostedUse } from './anthropic-hosted-calls.js';
import { mapAnthropicStopReason, parseAnthropicUsage } from './parse-anthropic-message.js';

interface Block {
  /** The block as `content_block_start` carried it (a hosted tool's result block comes whole in it). */
  readonly start: JsonObject;
  readonly type: string;
  readonly id: string | undefined;
  readonly name: string;
  readonly parts: string[];
  stopped: boolean;
}

/**
 * Reassembles a streamed Messages turn: text and `tool_use` blocks by their content-block index,
 * tool input from its `input_json_delta` pieces (the first may be empty; a tool without input
 * sends none, meaning `{}`). A tool whose input was cut by `max_tokens` mid-JSON, or a block the
 * stream never finished, is an incomplete call, kept as sent. A stream without `message_stop` is
 * truncated; an `error` event is an upstream error.
 */
export function assembleAnthropicStream(
  events: readonly ServerSentEvent[],
  ending: ResponseEnding,
): ParsedResponse {
  const blocks = new Map<number, Block>();
  let id: string | undefined;
  let model: string | undefined;
  let usage: Usage | undefined;
  let stopReason: string | undefined;
  let stopped = false;
  let error: string | undefined;
  for (const event of events) {
    const parsed = parseJson(event.data);
    const data = parsed.ok ? asObject(parsed.value) : undefined;
    if (!data) continue;
    const type = asString(data['type']) ?? event.event;
    if (type === 'message_start') {
      const message = asObject(data['message']) ?? {};
      id = asString(message['id']);
      model = asString(message['model']);
      usage = parseAnthropicUsage(message['usage']);
    } else if (type === 'content_block_start') {
      const block = asObject(data['content_block']) ?? {};
      const text = asString(block['text']);
      blocks.set(Number(data['index']), {
        start: block,
        type: asString(block['type']) ?? 'text',
        id: asString(block['id']),
        name: asString(block['name']) ?? '',
        parts: text ? [text] : [],
        stopped: false,
      });
    } else if (type === 'content_block_delta') {
      const delta = asObject(data['delta']) ?? {};
      const piece = asString(delta['text']) ?? asString(delta['partial_json']);
      if (piece !== undefined) blocks.get(Number(data['index']))?.parts.push(piece);
    } else if (type === 'content_block_stop') {
      const block = blocks.get(Number(data['index']));
      if (block) block.stopped = true;
    } else if (type === 'message_delta') {
      stopReason = asString(asObject(data['delta'])?.['stop_reason']) ?? stopReason;
      usage = parseAnthropicUsage(data['usage'], usage);
    } else if (type === 'message_stop') {
      stopped = true;
    } else if (type === 'error') {
      const detail: JsonObject = asObject(data['error']) ?? {};
      error = `${asString(detail['type']) ?? 'error'}: ${asString(detail['message']) ?? event.data}`;
    }
  }
  const ordered = [...blocks.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, block]) => block);
  const input = (block: Block) => {
    const raw = block.parts.join('');
    const argumentsRaw = raw === '' && block.stopped ? '{}' : raw;
    const parsedArguments = parseJson(argumentsRaw);
    const cutByLimit = stopReason === 'max_tokens' && !parsedArguments.ok;
    return {
      argumentsRaw,
      arguments: parsedArguments,
      complete: block.stopped && stopped && !cutByLimit,
    };
  };
  const toolCalls = ordered
    .filter((block) => block.type === 'tool_use')
    .map((block, index): ToolCall => ({ id: block.id, index, name: block.name, ...input(block) }));
  const hosted = hostedCalls(
    ordered
      .filter((block) => isHostedUse(block.type))
      .map((block) => ({ block: block.start, ...input(block) })),
    ordered.filter((block) => isHostedResult(block.type)).map((block) => block.start),
  );
  const text = ordered
    .filter((block) => block.type === 'text')
    .map((block) => block.parts.join(''))
    .join('');
  const response: ResponseSummary | undefined =
    blocks.size > 0 || id !== undefined
      ? {
          id,
          model,
          output: {
            text,
            refusal: stopReason === 'refusal' ? text : undefined,
            toolCalls,
            ...(hosted.length > 0 ? { hostedCalls: hosted } : {}),
            finishReason: mapAnthropicStopReason(stopReason),
          },
          alternatives: [],
          usage,
        }
      : undefined;
  if (error !== undefined) return { response, status: 'upstream-error', error };
  if (!stopped) {
    if (ending === 'client-aborted')
      return {
        response,
        status: 'aborted',
        error: 'the agent disconnected before the response ended',
      };
    return {
      response,
      status: 'truncated',
      error:
        ending === 'upstream-failed'
          ? 'the upstream connection failed before message_stop'
          : 'the stream ended without message_stop',
    };
  }
  return { response, status: 'complete', error: undefined };
}
