import type {
  AssistantOutput,
  FinishReason,
  JsonValue,
  ResponseSummary,
  ToolCall,
  Usage,
} from '../../trace/trace.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from '../json-access.js';
import { hostedCalls, isHostedResult, isHostedUse } from './anthropic-hosted-calls.js';

/** A whole (non-streamed) Messages response as the trace's summary. */
export function parseAnthropicMessageResponse(value: JsonValue): ResponseSummary {
  const message = asObject(value) ?? {};
  const blocks = asArray(message['content']).map((block) => asObject(block) ?? {});
  const calls = blocks
    .filter((block) => block['type'] === 'tool_use')
    .map((block, index): ToolCall => {
      const input = block['input'] ?? {};
      return {
        id: asString(block['id']),
        index,
        name: asString(block['name']) ?? '',
        argumentsRaw: JSON.stringify(input),
        arguments: { ok: true, value: input },
        complete: true,
      };
    });
  const hosted = hostedCalls(
    blocks
      .filter((block) => isHostedUse(asString(block['type'])))
      .map((block) => {
        const input = block['input'] ?? {};
        return {
          block,
          argumentsRaw: JSON.stringify(input),
          arguments: { ok: true, value: input },
          complete: true,
        };
      }),
    blocks.filter((block) => isHostedResult(asString(block['type']))),
  );
  const stopReason = asString(message['stop_reason']);
  const output: AssistantOutput = {
    text: textOf(blocks),
    refusal: stopReason === 'refusal' ? textOf(blocks) : undefined,
    toolCalls: calls,
    ...(hosted.length > 0 ? { hostedCalls: hosted } : {}),
    finishReason: mapAnthropicStopReason(stopReason),
  };
  return {
    id: asString(message['id']),
    model: asString(message['model']),
    output,
    alternatives: [],
    usage: parseAnthropicUsage(message['usage']),
  };
}

export function textOf(blocks: readonly JsonObject[]): string {
  return blocks
    .filter((block) => block['type'] === 'text')
    .map((block) => asString(block['text']) ?? '')
    .join('');
}

/** Maps Messages `stop_reason` values onto the unified set. */
export function mapAnthropicStopReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    case undefined:
      return { unified: 'unknown', raw };
    default:
      return { unified: 'other', raw };
  }
}

/** Reads a Messages `usage` object (input and cache reads counted as input). */
export function parseAnthropicUsage(
  value: JsonValue | undefined,
  earlier?: Usage,
): Usage | undefined {
  const usage = asObject(value);
  if (!usage) return earlier;
  const input = asNumber(usage['input_tokens']) ?? earlier?.inputTokens;
  const output = asNumber(usage['output_tokens']) ?? earlier?.outputTokens;
  const cached = asNumber(usage['cache_read_input_tokens']) ?? earlier?.cachedInputTokens;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input !== undefined && output !== undefined ? input + output : undefined,
    cachedInputTokens: cached,
    reasoningTokens: undefined,
  };
}
