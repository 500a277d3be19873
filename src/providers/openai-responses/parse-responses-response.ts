import type {
  AssistantOutput,
  FinishReason,
  JsonValue,
  ResponseSummary,
  ToolCall,
  Usage,
} from '../../trace/trace.js';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  parseJson,
  type JsonObject,
} from '../json-access.js';
import { hostedItemCall, isHostedItem } from './responses-hosted-calls.js';

/** A Responses `response` object (whole, or the one `response.completed` carries) as the trace's summary. */
export function parseResponsesResponse(
  value: JsonValue,
  incompleteIds: ReadonlySet<string> = new Set(),
): ResponseSummary {
  const response = asObject(value) ?? {};
  const items = asArray(response['output']).map((item) => asObject(item) ?? {});
  const calls = items
    .filter((item) => item['type'] === 'function_call' || item['type'] === 'custom_tool_call')
    .map((item, index): ToolCall => {
      const argumentsRaw = asString(item['arguments']) ?? asString(item['input']) ?? '';
      const id = asString(item['call_id']);
      const done = item['status'] === undefined || item['status'] === 'completed';
      return {
        id,
        index,
        name: asString(item['name']) ?? '',
        argumentsRaw,
        arguments: parseJson(argumentsRaw),
        complete: done && !(id !== undefined && incompleteIds.has(id)),
      };
    });
  const hosted = items
    .filter((item) => isHostedItem(asString(item['type'])))
    .map((item, index) => hostedItemCall(item, index));
  const messages = items.filter((item) => item['type'] === 'message');
  const text = messages
    .flatMap((item) => asArray(item['content']).map((part) => asObject(part) ?? {}))
    .filter((part) => part['type'] === 'output_text')
    .map((part) => asString(part['text']) ?? '')
    .join('');
  const refusal = messages
    .flatMap((item) => asArray(item['content']).map((part) => asObject(part) ?? {}))
    .filter((part) => part['type'] === 'refusal')
    .map((part) => asString(part['refusal']) ?? '')
    .join('');
  const output: AssistantOutput = {
    text,
    refusal: refusal === '' ? undefined : refusal,
    toolCalls: calls,
    ...(hosted.length > 0 ? { hostedCalls: hosted } : {}),
    finishReason: finishReasonOf(response, calls.length > 0),
  };
  return {
    id: asString(response['id']),
    model: asString(response['model']),
    output,
    alternatives: [],
    usage: parseResponsesUsage(response['usage']),
  };
}

/** `status` and `incomplete_details.reason` in the unified set; `raw` is the status (or the incomplete reason). */
function finishReasonOf(response: JsonObject, calls: boolean): FinishReason {
  const status = asString(response['status']);
  if (status === 'completed') return { unified: calls ? 'tool-calls' : 'stop', raw: status };
  if (status === 'incomplete') {
    const reason = asString(asObject(response['incomplete_details'])?.['reason']);
    return {
      unified:
        reason === 'max_output_tokens'
          ? 'length'
          : reason === 'content_filter'
            ? 'content-filter'
            : 'other',
      raw: reason ?? status,
    };
  }
  if (status === 'failed') return { unified: 'error', raw: status };
  return { unified: status === undefined ? 'unknown' : 'other', raw: status };
}

export function parseResponsesUsage(value: JsonValue | undefined): Usage | undefined {
  const usage = asObject(value);
  if (!usage) return undefined;
  return {
    inputTokens: asNumber(usage['input_tokens']),
    outputTokens: asNumber(usage['output_tokens']),
    totalTokens: asNumber(usage['total_tokens']),
    cachedInputTokens: asNumber(asObject(usage['input_tokens_details'])?.['cached_tokens']),
    reasoningTokens: asNumber(asObject(usage['output_tokens_details'])?.['reasoning_tokens']),
  };
}
