import { emptyPrefix, nextKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, parseJson } from '../json-access.js';
import { pairToolResults } from '../pair-tool-results.js';
import type { ToolLoopWire } from '../provider-adapter.js';
import { toOllamaStream, toOllamaWhole } from './convert-ollama-body.js';
import { readOllamaToolCall } from './ollama-tool-call.js';
import { ollamaMessages } from './parse-ollama-request.js';

/**
 * The in-proxy tool loop in `/api/chat` terms: an assistant message with `tool_calls` (arguments
 * as objects), then a `tool` message per result naming the tool (`tool_name`) and the call
 * (`tool_call_id`, which Ollama reads where the model's template uses it and ignores elsewhere).
 */
export const ollamaToolLoop: ToolLoopWire = {
  turnMessages(output, results) {
    const assistant: JsonValue = {
      role: 'assistant',
      content: output.text,
      ...(output.toolCalls.length > 0
        ? {
            tool_calls: output.toolCalls.map((call) => ({
              ...(call.id !== undefined ? { id: call.id } : {}),
              function: {
                index: call.index,
                name: call.name,
                arguments: call.arguments.ok ? call.arguments.value : call.argumentsRaw,
              },
            })),
          }
        : {}),
    };
    const names = new Map(output.toolCalls.map((call) => [call.id, call.name]));
    // The wire has no error flag for tool results: an error travels in the content.
    return [
      assistant,
      ...results.map((result): JsonValue => ({
        role: 'tool',
        content: result.content,
        tool_name: names.get(result.callId) ?? '',
        tool_call_id: result.callId,
      })),
    ];
  },

  appendMessages(body, messages) {
    const request = asObject(body) ?? {};
    return { ...request, messages: [...asArray(request['messages']), ...messages] };
  },

  splice(body, replace) {
    const request = asObject(body);
    if (!request) return undefined;
    const wireMessages = asArray(request['messages']);
    const parsed = ollamaMessages(request['messages']);
    let key = emptyPrefix;
    let changed = false;
    const messages: JsonValue[] = [];
    wireMessages.forEach((message, index) => {
      const read = parsed[index];
      if (read) key = nextKey(key, read);
      const replacement = read?.role === 'assistant' ? replace(key) : undefined;
      if (replacement) {
        messages.push(...replacement);
        changed = true;
      } else messages.push(message);
    });
    return changed ? { ...request, messages } : undefined;
  },

  toolResults(body) {
    return pairToolResults(
      ollamaMessages(asObject(body)?.['messages']).flatMap((message) => message ?? []),
    );
  },

  withToolResults(body, contents) {
    const request = asObject(body) ?? {};
    const parsed = ollamaMessages(request['messages']);
    const messages = asArray(request['messages']).map((message, index) => {
      const object = asObject(message);
      const callId = parsed[index]?.role === 'tool' ? parsed[index].toolCallId : undefined;
      const content = callId === undefined ? undefined : contents.get(callId);
      return object && content !== undefined ? { ...object, content } : message;
    });
    return { ...request, messages };
  },

  withoutCalls(body, form, drop) {
    const wholeText = form.stream ? toOllamaWhole(body) : body;
    const parsed = wholeText === undefined ? undefined : parseJson(wholeText);
    const whole = parsed?.ok ? asObject(parsed.value) : undefined;
    if (!whole) return undefined;
    const message = asObject(whole['message']) ?? {};
    const kept = asArray(message['tool_calls']).flatMap((value, position) => {
      const call = asObject(value);
      const fn = asObject(call?.['function']);
      const { id } = readOllamaToolCall(value, position, true);
      if (id !== undefined && drop.has(id)) return [];
      // A call without id keeps its number, so its id reads the same once the calls before it are gone.
      return call && fn && fn['index'] === undefined
        ? [{ ...call, function: { ...fn, index: position } }]
        : [value];
    });
    const { tool_calls: _calls, ...rest } = message;
    const visible = JSON.stringify({
      ...whole,
      message: { ...rest, ...(kept.length > 0 ? { tool_calls: kept } : {}) },
    });
    return form.stream ? toOllamaStream(visible) : visible;
  },
};
