import type { ServerSentEvent } from '../../sse/decode-sse.js';
import type { HostedToolCall, ToolCall } from '../../trace/trace.js';
import { asObject, asString, parseJson, type JsonObject } from '../json-access.js';
import type { ParsedResponse, ResponseEnding } from '../provider-adapter.js';
import { parseResponsesResponse } from './parse-responses-response.js';
import { hostedItemCall, isHostedItem } from './responses-hosted-calls.js';

interface Item {
  readonly type: string;
  readonly callId: string | undefined;
  readonly name: string;
  readonly argumentParts: string[];
  readonly textParts: string[];
  /** The item as `output_item.added` announced it. */
  readonly added: JsonObject;
  /** The finished item `output_item.done` carried. */
  finished: JsonObject | undefined;
}

/**
 * Reassembles a streamed Responses turn. The terminal event (`response.completed`,
 * `response.incomplete`, `response.failed`) carries the whole response: it is the source of
 * truth. Without one the stream was cut: the items are rebuilt from the deltas (keyed by
 * `output_index`, `item_id` where given), every call flagged incomplete, and the turn truncated.
 */
export function assembleResponsesStream(
  events: readonly ServerSentEvent[],
  ending: ResponseEnding,
): ParsedResponse {
  const items = new Map<number, Item>();
  const indexOfItem = new Map<string, number>();
  let started: JsonObject | undefined;
  for (const event of events) {
    const parsed = parseJson(event.data);
    const data = parsed.ok ? asObject(parsed.value) : undefined;
    if (!data) continue;
    const type = asString(data['type']) ?? event.event;
    if (
      type === 'response.completed' ||
      type === 'response.incomplete' ||
      type === 'response.failed'
    ) {
      const response = asObject(data['response']) ?? {};
      const summary = parseResponsesResponse(response);
      if (type === 'response.failed')
        return {
          response: summary,
          status: 'upstream-error',
          error: `the response failed: ${asString(asObject(response['error'])?.['message']) ?? 'no reason given'}`,
        };
      return { response: summary, status: 'complete', error: undefined };
    }
    if (type === 'error')
      return {
        response: undefined,
        status: 'upstream-error',
        error: `${asString(data['code']) ?? 'error'}: ${asString(data['message']) ?? event.data}`,
      };
    if (type === 'response.created') started = asObject(data['response']);
    const index =
      typeof data['output_index'] === 'number'
        ? data['output_index']
        : indexOfItem.get(asString(data['item_id']) ?? '');
    if (type === 'response.output_item.added' && index !== undefined) {
      const item = asObject(data['item']) ?? {};
      const id = asString(item['id']);
      if (id !== undefined) indexOfItem.set(id, index);
      items.set(index, {
        type: asString(item['type']) ?? '',
        callId: asString(item['call_id']),
        name: asString(item['name']) ?? '',
        argumentParts: [],
        textParts: [],
        added: item,
        finished: undefined,
      });
    } else if (
      (type === 'response.function_call_arguments.delta' ||
        type === 'response.custom_tool_call_input.delta' ||
        type === 'response.mcp_call_arguments.delta' ||
        type === 'response.code_interpreter_call_code.delta') &&
      index !== undefined
    ) {
      items.get(index)?.argumentParts.push(asString(data['delta']) ?? '');
    } else if (type === 'response.output_text.delta' && index !== undefined) {
      items.get(index)?.textParts.push(asString(data['delta']) ?? '');
    } else if (type === 'response.output_item.done' && index !== undefined) {
      const item = items.get(index);
      if (item) item.finished = asObject(data['item']) ?? item.added;
    }
  }
  // No terminal event: rebuild what arrived, flagged incomplete.
  const ordered = [...items.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, item]) => item);
  const toolCalls = ordered
    .filter((item) => item.type === 'function_call' || item.type === 'custom_tool_call')
    .map((item, index): ToolCall => {
      const argumentsRaw = item.argumentParts.join('');
      return {
        id: item.callId,
        index,
        name: item.name,
        argumentsRaw,
        arguments: parseJson(argumentsRaw),
        complete: false,
      };
    });
  const hostedCalls = ordered
    .filter((item) => isHostedItem(item.type))
    .map((item, index): HostedToolCall => hostedItemCall(item.finished ?? unfinished(item), index));
  const text = ordered
    .filter((item) => item.type === 'message')
    .map((item) => item.textParts.join(''))
    .join('');
  const response =
    started || items.size > 0
      ? {
          id: asString(started?.['id']),
          model: asString(started?.['model']),
          output: {
            text,
            refusal: undefined,
            toolCalls,
            ...(hostedCalls.length > 0 ? { hostedCalls } : {}),
            finishReason: { unified: 'unknown' as const, raw: undefined },
          },
          alternatives: [],
          usage: undefined,
        }
      : undefined;
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
        ? 'the upstream connection failed before the terminal event'
        : 'the stream ended without response.completed',
  };
}

/** A hosted item the stream never finished, with what its deltas carried (the MCP arguments, the code). */
function unfinished(item: Item): JsonObject {
  const streamed = item.argumentParts.join('');
  return item.type === 'mcp_call'
    ? { ...item.added, arguments: streamed }
    : item.type === 'code_interpreter_call'
      ? { ...item.added, code: streamed }
      : item.added;
}
