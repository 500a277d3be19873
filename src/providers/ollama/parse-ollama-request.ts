import type { JsonValue, Message, RequestSummary, ToolDefinition } from '../../trace/trace.js';
import { asArray, asObject, asSchema, asString } from '../json-access.js';
import { readOllamaToolCall } from './ollama-tool-call.js';

const roles = new Set<Message['role']>(['system', 'user', 'assistant', 'tool']);

/**
 * Summarises an `/api/chat` request body. Ollama streams unless `"stream": false`. `format`,
 * `options`, `think` and `keep_alive` shape the answer but not the trace; they stay in the body,
 * and so in the match key.
 */
export function parseOllamaRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  return {
    model: asString(request['model']),
    stream: request['stream'] !== false,
    messages: ollamaMessages(request['messages']).flatMap((message) => message ?? []),
    tools: parseTools(request['tools']),
    // Ollama has no way to force or forbid a tool.
    toolChoice: undefined,
  };
}

/**
 * The conversation, one entry per wire message (undefined where it is not a message), so callers
 * can walk the wire list beside it. A tool result names its call by `tool_call_id` where the
 * agent sent one; otherwise (`tool_name` only, as Ollama's own examples do) it answers the first
 * call of the latest assistant turn not yet answered with that name, or failing that the first
 * unanswered one.
 */
export function ollamaMessages(messages: JsonValue | undefined): (Message | undefined)[] {
  let pending: { readonly id: string; readonly name: string }[] = [];
  return asArray(messages).map((value) => {
    const message = asObject(value);
    const rawRole = asString(message?.['role'])?.toLowerCase();
    if (!message || rawRole === undefined) return undefined;
    // Ollama lower-cases roles on reading; an unknown role reads as the user's.
    const role = roles.has(rawRole as Message['role']) ? (rawRole as Message['role']) : 'user';
    const toolCalls = asArray(message['tool_calls']).map((call, position) =>
      readOllamaToolCall(call, position, true),
    );
    if (role === 'assistant' && toolCalls.length > 0)
      pending = toolCalls.map((call) => ({ id: call.id ?? '', name: call.name }));
    let toolCallId: string | undefined;
    if (role === 'tool') {
      const named = asString(message['tool_call_id']) || undefined;
      const toolName = asString(message['tool_name']);
      const answered =
        named !== undefined
          ? pending.find((call) => call.id === named)
          : (pending.find((call) => call.name === toolName) ?? pending[0]);
      toolCallId = named ?? answered?.id;
      pending = pending.filter((call) => call !== answered);
    }
    return {
      role,
      text: asString(message['content']) ?? '',
      toolCalls,
      toolCallId,
      isError: undefined,
    };
  });
}

function parseTools(tools: JsonValue | undefined): ToolDefinition[] {
  return asArray(tools).flatMap((tool) => {
    const fn = asObject(asObject(tool)?.['function']);
    const name = asString(fn?.['name']);
    return fn && name
      ? [
          {
            name,
            description: asString(fn['description']),
            parameters: asSchema(fn['parameters']),
            strict: undefined,
          },
        ]
      : [];
  });
}
