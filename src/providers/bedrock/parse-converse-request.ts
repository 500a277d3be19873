import type {
  JsonValue,
  Message,
  RequestSummary,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../../trace/trace.js';
import { asArray, asObject, asSchema, asString, type JsonObject } from '../json-access.js';

/**
 * Summarises a Converse / ConverseStream request body. The model is in the path (the route
 * supplies it); `system` blocks lead as one system message; an assistant message is one message
 * with its `toolUse` blocks as calls; each `toolResult` block of a user message becomes a tool
 * message, failed when its `status` is `error`. Never throws.
 */
export function parseConverseRequest(body: JsonValue): RequestSummary {
  const request = asObject(body) ?? {};
  const system = textOf(asArray(request['system']));
  const toolConfig = asObject(request['toolConfig']);
  return {
    model: undefined,
    stream: false,
    messages: [
      ...(system !== '' ? [message('system', system)] : []),
      ...asArray(request['messages']).flatMap((item) => converseMessage(asObject(item))),
    ],
    tools: asArray(toolConfig?.['tools']).flatMap((tool): ToolDefinition[] => {
      const spec = asObject(asObject(tool)?.['toolSpec']);
      const name = asString(spec?.['name']);
      if (!spec || name === undefined) return [];
      return [
        {
          name,
          description: asString(spec['description']),
          parameters: asSchema(asObject(spec['inputSchema'])?.['json']),
          strict: undefined,
        },
      ];
    }),
    toolChoice: toolChoiceOf(asObject(toolConfig?.['toolChoice'])),
  };
}

/** The calls of `toolUse` content blocks, numbered in block order. */
export function toolUseCalls(blocks: readonly JsonValue[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const block of blocks) {
    const use = asObject(asObject(block)?.['toolUse']);
    if (!use) continue;
    const input = use['input'] ?? {};
    calls.push({
      id: asString(use['toolUseId']),
      index: calls.length,
      name: asString(use['name']) ?? '',
      argumentsRaw: JSON.stringify(input),
      arguments: { ok: true, value: input },
      complete: true,
    });
  }
  return calls;
}

/** The text blocks of a content list, joined with newlines. */
export function textOf(blocks: readonly JsonValue[]): string {
  return blocks
    .flatMap((block) => {
      const text = asString(asObject(block)?.['text']);
      return text === undefined ? [] : [text];
    })
    .join('\n');
}

/** The trace messages one Converse message stands for: an assistant turn, or a user message's tool results then its text. */
export function converseMessage(value: JsonObject | undefined): Message[] {
  const content = asArray(value?.['content']);
  if (value?.['role'] === 'assistant')
    return [{ ...message('assistant', textOf(content)), toolCalls: toolUseCalls(content) }];
  const results = content.flatMap((block): Message[] => {
    const result = asObject(asObject(block)?.['toolResult']);
    if (!result) return [];
    return [
      {
        ...message('tool', resultText(asArray(result['content']))),
        toolCallId: asString(result['toolUseId']),
        isError:
          result['status'] === 'error' ? true : result['status'] === 'success' ? false : undefined,
      },
    ];
  });
  const text = textOf(content);
  return [...results, ...(text !== '' || results.length === 0 ? [message('user', text)] : [])];
}

/** A tool result's content as text: its text blocks, and its `json` blocks serialised. */
function resultText(blocks: readonly JsonValue[]): string {
  return blocks
    .flatMap((block) => {
      const object = asObject(block);
      const text = asString(object?.['text']);
      if (text !== undefined) return [text];
      return object && object['json'] !== undefined ? [JSON.stringify(object['json'])] : [];
    })
    .join('\n');
}

function toolChoiceOf(choice: JsonObject | undefined): ToolChoice | undefined {
  if (!choice) return undefined;
  if (choice['auto'] !== undefined) return { type: 'auto' };
  if (choice['any'] !== undefined) return { type: 'required' };
  const name = asString(asObject(choice['tool'])?.['name']);
  return name !== undefined ? { type: 'tool', name } : undefined;
}

function message(role: Message['role'], text: string): Message {
  return { role, text, toolCalls: [], toolCallId: undefined, isError: undefined };
}
