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
  type JsonObject,
} from '../json-access.js';

/** Summarises a Messages request body (`POST /v1/messages`). */
export function parseAnthropicRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  // A thread continued server-side by message id sends only the new messages.
  const thread = asObject(request['thread']);
  const continues =
    thread?.['type'] === 'continue' ? asString(thread['previous_message_id']) : undefined;
  return {
    model: asString(request['model']),
    stream: request['stream'] === true,
    messages: [
      ...systemMessages(request),
      ...asArray(request['messages']).flatMap((item) => parseAnthropicMessage(asObject(item))),
    ],
    tools: asArray(request['tools']).flatMap((tool): ToolDefinition[] => {
      const object = asObject(tool);
      const name = asString(object?.['name']);
      // Server tools (web_search, bash…) have a type and no input_schema; they are still tools the model may call.
      return object && name
        ? [
            {
              name,
              description: asString(object['description']),
              parameters: asSchema(object['input_schema']),
              strict: asBoolean(object['strict']),
            },
          ]
        : [];
    }),
    toolChoice: parseToolChoice(asObject(request['tool_choice'])),
    ...(continues !== undefined ? { continues } : {}),
  };
}

/** The top-level `system` prompt as the trace's leading system message (none when absent). */
export function systemMessages(request: JsonObject): Message[] {
  const system = systemText(request['system']);
  return system !== undefined ? [message('system', system)] : [];
}

/**
 * One wire message as the trace's messages: an assistant message is one message (its text and
 * `tool_use` blocks); a user message's `tool_result` blocks become one tool message each, and
 * its other content a user message after them.
 */
export function parseAnthropicMessage(value: JsonObject | undefined): Message[] {
  const role = asString(value?.['role']);
  if (!value || (role !== 'user' && role !== 'assistant')) return [];
  const content = value['content'];
  if (typeof content === 'string') return [message(role, content)];
  const blocks = asArray(content).map((block) => asObject(block) ?? {});
  if (role === 'assistant') {
    const calls = blocks
      // Hosted calls (server_tool_use, mcp_tool_use) are the provider's, never the agent's: as in the parsed response.
      .filter((block) => block['type'] === 'tool_use')
      .map((block, index) => requestToolCall(block, index));
    return [{ ...message('assistant', textOf(blocks)), toolCalls: calls }];
  }
  const results = blocks
    .filter((block) => block['type'] === 'tool_result')
    .map((block): Message => ({
      ...message('tool', resultText(block['content'])),
      toolCallId: asString(block['tool_use_id']),
      isError: asBoolean(block['is_error']) ?? false,
    }));
  const rest = blocks.filter((block) => block['type'] !== 'tool_result');
  return [
    ...results,
    ...(rest.length > 0 || results.length === 0 ? [message('user', textOf(rest))] : []),
  ];
}

function message(role: Message['role'], text: string): Message {
  return { role, text, toolCalls: [], toolCallId: undefined, isError: undefined };
}

function textOf(blocks: readonly JsonObject[]): string {
  return blocks
    .filter((block) => block['type'] === 'text')
    .map((block) => asString(block['text']) ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

function resultText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return textOf(asArray(content).map((block) => asObject(block) ?? {}));
}

function systemText(system: JsonValue | undefined): string | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === 'string') return system;
  return textOf(asArray(system).map((block) => asObject(block) ?? {}));
}

function requestToolCall(block: JsonObject, index: number): ToolCall {
  const input = block['input'] ?? {};
  return {
    id: asString(block['id']),
    index,
    name: asString(block['name']) ?? '',
    argumentsRaw: JSON.stringify(input),
    arguments: { ok: true, value: input },
    complete: true,
  };
}

function parseToolChoice(choice: JsonObject | undefined): ToolChoice | undefined {
  const type = asString(choice?.['type']);
  if (type === 'auto' || type === 'none') return { type };
  if (type === 'any') return { type: 'required' };
  if (type === 'tool') return { type: 'tool', name: asString(choice?.['name']) ?? '' };
  return undefined;
}
