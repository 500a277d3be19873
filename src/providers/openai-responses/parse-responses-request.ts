import type {
  JsonValue,
  Message,
  RequestSummary,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../../trace/trace.js';
import {
  asArray,
  asBoolean,
  asObject,
  asSchema,
  asString,
  parseJson,
  type JsonObject,
} from '../json-access.js';

/** Summarises a Responses request body (`POST /v1/responses`). */
export function parseResponsesRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  const input = request['input'];
  const items =
    typeof input === 'string'
      ? [message('user', input)]
      : mergeAssistantItems(asArray(input).flatMap((item) => parseInputItem(asObject(item))));
  const previous = asString(request['previous_response_id']);
  return {
    model: asString(request['model']),
    stream: request['stream'] === true,
    messages: [...instructionMessages(request), ...items],
    tools: asArray(request['tools']).flatMap((tool): ToolDefinition[] => {
      const object = asObject(tool);
      const name = asString(object?.['name']);
      // Flat function tools; built-in tools (web_search, file_search…) have no name and are not callable functions.
      return object && name && (object['type'] === 'function' || object['type'] === 'custom')
        ? [
            {
              name,
              description: asString(object['description']),
              parameters: asSchema(object['parameters']),
              strict: asBoolean(object['strict']),
            },
          ]
        : [];
    }),
    toolChoice: parseToolChoice(request['tool_choice']),
    ...(previous !== undefined ? { continues: previous } : {}),
  };
}

/** The top-level `instructions` as the trace's leading system message (none when absent). */
export function instructionMessages(request: JsonObject): Message[] {
  const instructions = asString(request['instructions']);
  return instructions !== undefined ? [message('system', instructions)] : [];
}

/** One input item as the trace's messages: messages, the model's earlier calls, and the results sent back. */
export function parseInputItem(item: JsonObject | undefined): Message[] {
  if (!item) return [];
  const type = asString(item['type']) ?? 'message';
  if (type === 'message') {
    const role = asString(item['role']);
    const unified: Message['role'] =
      role === 'system' || role === 'developer' || role === 'assistant' ? role : 'user';
    return [message(unified, contentText(item['content']))];
  }
  if (type === 'function_call' || type === 'custom_tool_call') {
    const argumentsRaw = asString(item['arguments']) ?? asString(item['input']) ?? '';
    const call: ToolCall = {
      id: asString(item['call_id']),
      index: 0,
      name: asString(item['name']) ?? '',
      argumentsRaw,
      arguments: parseJson(argumentsRaw),
      complete: true,
    };
    return [{ ...message('assistant', ''), toolCalls: [call] }];
  }
  if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    return [
      {
        ...message(
          'tool',
          typeof item['output'] === 'string' ? item['output'] : contentText(item['output']),
        ),
        toolCallId: asString(item['call_id']),
        isError: undefined,
      },
    ];
  }
  return [];
}

/**
 * A model turn comes back as separate items (its message, then one `function_call` per call);
 * as the trace it is one assistant message, like the response it echoes — so a request that
 * resends its history chains to the turn it continues.
 */
function mergeAssistantItems(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const item of messages) {
    const previous = merged.at(-1);
    if (
      item.role === 'assistant' &&
      previous?.role === 'assistant' &&
      (item.toolCalls.length > 0 || previous.toolCalls.length === 0)
    ) {
      const toolCalls = [...previous.toolCalls, ...item.toolCalls].map((call, index) => ({
        ...call,
        index,
      }));
      merged[merged.length - 1] = {
        ...previous,
        text: [previous.text, item.text].filter(Boolean).join('\n'),
        toolCalls,
      };
    } else merged.push(item);
  }
  return merged;
}

function message(role: Message['role'], text: string): Message {
  return { role, text, toolCalls: [], toolCallId: undefined, isError: undefined };
}

function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map(
      (part) => asString(asObject(part)?.['text']) ?? asString(asObject(part)?.['refusal']) ?? '',
    )
    .filter((text) => text.length > 0)
    .join('\n');
}

function parseToolChoice(choice: JsonValue | undefined): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  const object = asObject(choice);
  const name = asString(object?.['name']);
  return name !== undefined ? { type: 'tool', name } : undefined;
}
