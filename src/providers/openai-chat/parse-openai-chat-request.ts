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

const roles = new Set<Message['role']>(['system', 'developer', 'user', 'assistant', 'tool']);

/** Summarises a Chat Completions request body (`POST /v1/chat/completions`). */
export function parseOpenAiChatRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  return {
    model: asString(request['model']),
    stream: request['stream'] === true,
    messages: asArray(request['messages']).flatMap((message) => {
      const parsed = parseMessage(asObject(message));
      return parsed ? [parsed] : [];
    }),
    tools: [...parseTools(request['tools']), ...parseLegacyFunctions(request['functions'])],
    toolChoice: parseToolChoice(request['tool_choice'] ?? request['function_call']),
  };
}

export function parseMessage(message: JsonObject | undefined): Message | undefined {
  const role = asString(message?.['role']);
  if (!message || !role) return undefined;
  // Legacy `function` role results are tool results too.
  const unifiedRole: Message['role'] =
    role === 'function'
      ? 'tool'
      : roles.has(role as Message['role'])
        ? (role as Message['role'])
        : 'user';
  const legacyCall = asObject(message['function_call']);
  return {
    role: unifiedRole,
    text: contentText(message['content']),
    toolCalls: [
      ...asArray(message['tool_calls']).map((call, index) =>
        requestToolCall(asObject(call), index),
      ),
      ...(legacyCall ? [requestToolCall({ function: legacyCall }, 0)] : []),
    ],
    toolCallId:
      asString(message['tool_call_id']) ??
      (role === 'function' ? asString(message['name']) : undefined),
    isError: undefined,
  };
}

/** Joins the text parts of string-or-array content; non-text parts (images, audio) are skipped. */
function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => {
      const object = asObject(part);
      return asString(object?.['text']) ?? asString(object?.['refusal']) ?? '';
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

function requestToolCall(call: JsonObject | undefined, index: number): ToolCall {
  const fn = asObject(call?.['function']);
  const argumentsRaw = asString(fn?.['arguments']) ?? '';
  return {
    id: asString(call?.['id']),
    index,
    name: asString(fn?.['name']) ?? '',
    argumentsRaw,
    arguments: parseJson(argumentsRaw),
    complete: true,
  };
}

function parseTools(tools: JsonValue | undefined): ToolDefinition[] {
  return asArray(tools).flatMap((tool) => {
    const fn = asObject(asObject(tool)?.['function']);
    const name = asString(fn?.['name']);
    return fn && name ? [toolDefinition(fn, name)] : [];
  });
}

function parseLegacyFunctions(functions: JsonValue | undefined): ToolDefinition[] {
  return asArray(functions).flatMap((fn) => {
    const object = asObject(fn);
    const name = asString(object?.['name']);
    return object && name ? [toolDefinition(object, name)] : [];
  });
}

function toolDefinition(fn: JsonObject, name: string): ToolDefinition {
  return {
    name,
    description: asString(fn['description']),
    parameters: asSchema(fn['parameters']),
    strict: asBoolean(fn['strict']),
  };
}

function parseToolChoice(choice: JsonValue | undefined): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  const object = asObject(choice);
  const name = asString(asObject(object?.['function'])?.['name']) ?? asString(object?.['name']);
  return name ? { type: 'tool', name } : undefined;
}
