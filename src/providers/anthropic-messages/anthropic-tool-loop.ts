import fnv1a from '@sindresorhus/fnv1a';
import { keyAfter, nextKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, parseJson, type JsonObject } from '../json-access.js';
import { pairToolResults } from '../pair-tool-results.js';
import type { ToolLoopWire } from '../provider-adapter.js';
import { toAnthropicMessage, toAnthropicStream } from './convert-anthropic-body.js';
import { parseAnthropicMessage, systemMessages } from './parse-anthropic-request.js';

/**
 * The in-proxy tool loop in Messages terms: an assistant message with `tool_use` blocks, then one
 * user message with a `tool_result` block per call. Every result must sit in the user message
 * right after the call, so when the agent answers some calls of a turn and mocks the others,
 * the mocks' results are merged into the agent's own result message.
 */
export const anthropicToolLoop: ToolLoopWire = {
  turnMessages(output, results) {
    const content: JsonValue[] = [
      ...(output.text !== '' ? [{ type: 'text', text: output.text }] : []),
      ...output.toolCalls.map((call): JsonValue => ({
        type: 'tool_use',
        id: call.id ?? '',
        name: call.name,
        input: call.arguments.ok ? call.arguments.value : {},
      })),
    ];
    const assistant: JsonValue = { role: 'assistant', content };
    if (results.length === 0) return [assistant];
    return [
      assistant,
      {
        role: 'user',
        content: results.map((result): JsonValue => ({
          type: 'tool_result',
          tool_use_id: result.callId,
          content: result.content,
          ...(result.isError ? { is_error: true } : {}),
        })),
      },
    ];
  },

  appendMessages(body, messages) {
    const request = asObject(body) ?? {};
    return { ...request, messages: [...asArray(request['messages']), ...messages] };
  },

  continueAfter(body, responseId, results) {
    const request = asObject(body) ?? {};
    // A request that creates or continues a server-side thread: the hidden round continues it by message id.
    if (asObject(request['thread']) === undefined || responseId === undefined) return undefined;
    return {
      ...request,
      thread: { ...asObject(request['thread']), type: 'continue', previous_message_id: responseId },
      messages: [resultMessage(results)],
    };
  },

  responseKey(responseId) {
    return fnv1a(`message\u0000${responseId}`, { size: 64 });
  },

  splice(body, replace) {
    const request = asObject(body);
    if (!request) return undefined;
    if (continuesThread(request)) {
      // The thread is server-side: add the mocks' results for the message continued to the agent's first user message.
      const previous = asObject(request['thread'])?.['previous_message_id'];
      const kept =
        typeof previous === 'string' && this.responseKey
          ? replace(this.responseKey(previous))
          : undefined;
      const last = asObject(kept?.at(-1));
      if (!kept || last?.['role'] !== 'user') return undefined;
      const [first, ...rest] = asArray(request['messages']);
      const firstObject = asObject(first);
      const merged =
        firstObject?.['role'] === 'user'
          ? [
              {
                role: 'user',
                content: [...blocks(last['content']), ...blocks(firstObject['content'])],
              },
              ...rest,
            ]
          : [last, ...asArray(request['messages'])];
      return { ...request, messages: merged };
    }
    // Keyed as the request parser reads it, system prompt first: the loop stored the hidden history under those keys.
    let key = keyAfter(systemMessages(request));
    let changed = false;
    const messages: JsonValue[] = [];
    let mergeNext = false;
    for (const message of asArray(request['messages'])) {
      const object = asObject(message);
      const parsed = parseAnthropicMessage(object);
      for (const part of parsed) key = nextKey(key, part);
      const replacement = object?.['role'] === 'assistant' ? replace(key) : undefined;
      if (mergeNext && object?.['role'] === 'user') {
        // The mocks' results and the agent's own must share the one user message after the calls.
        const previous = asObject(messages.pop()) ?? {};
        messages.push({
          role: 'user',
          content: [...blocks(previous['content']), ...blocks(object['content'])],
        });
        mergeNext = false;
        continue;
      }
      mergeNext = false;
      if (replacement) {
        messages.push(...replacement);
        changed = true;
        mergeNext = asObject(replacement.at(-1))?.['role'] === 'user';
      } else messages.push(message);
    }
    return changed ? { ...request, messages } : undefined;
  },

  toolResults(body) {
    return pairToolResults(
      asArray(asObject(body)?.['messages']).flatMap((message) =>
        parseAnthropicMessage(asObject(message)),
      ),
    );
  },

  withToolResults(body, contents) {
    // (Results for calls of a thread continued server-side are not in the request: they are left as they are.)
    const request = asObject(body) ?? {};
    const messages = asArray(request['messages']).map((message) => {
      const object = asObject(message);
      if (object?.['role'] !== 'user' || !Array.isArray(object['content'])) return message;
      return {
        ...object,
        content: blocks(object['content']).map((block) => {
          const result = asObject(block);
          const id = result?.['type'] === 'tool_result' ? result['tool_use_id'] : undefined;
          const content = typeof id === 'string' ? contents.get(id) : undefined;
          return result && content !== undefined ? { ...result, content } : block;
        }),
      };
    });
    return { ...request, messages };
  },

  withoutCalls(body, form, drop) {
    const messageText = form.stream ? toAnthropicMessage(body) : body;
    const parsed = messageText === undefined ? undefined : parseJson(messageText);
    const message = parsed?.ok ? asObject(parsed.value) : undefined;
    if (!message) return undefined;
    const content = asArray(message['content']).filter((block) => {
      const object: JsonObject | undefined = asObject(block);
      return !(
        object?.['type'] === 'tool_use' &&
        typeof object['id'] === 'string' &&
        drop.has(object['id'])
      );
    });
    const visible = JSON.stringify({ ...message, content });
    return form.stream ? toAnthropicStream(visible) : visible;
  },
};

function continuesThread(request: JsonObject): boolean {
  return asObject(request['thread'])?.['type'] === 'continue';
}

function resultMessage(
  results: readonly {
    readonly callId: string;
    readonly content: string;
    readonly isError: boolean;
  }[],
): JsonValue {
  return {
    role: 'user',
    content: results.map((result): JsonValue => ({
      type: 'tool_result',
      tool_use_id: result.callId,
      content: result.content,
      ...(result.isError ? { is_error: true } : {}),
    })),
  };
}

function blocks(content: JsonValue | undefined): JsonValue[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return [...asArray(content)];
}
