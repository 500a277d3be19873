import { emptyPrefix, nextKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, parseJson } from '../json-access.js';
import { pairToolResults } from '../pair-tool-results.js';
import type { ToolLoopWire } from '../provider-adapter.js';
import { toCompletionBody, toStreamBody } from './convert-openai-chat-body.js';
import { parseMessage } from './parse-openai-chat-request.js';

/** The in-proxy tool loop in Chat Completions terms: assistant messages with `tool_calls`, `tool` messages with the results. */
export const openAiChatToolLoop: ToolLoopWire = {
  turnMessages(output, results) {
    const assistant: JsonValue = {
      role: 'assistant',
      content: output.text.length > 0 ? output.text : null,
      ...(output.refusal !== undefined ? { refusal: output.refusal } : {}),
      ...(output.toolCalls.length > 0
        ? {
            tool_calls: output.toolCalls.map((call) => ({
              id: call.id ?? '',
              type: 'function',
              function: { name: call.name, arguments: call.argumentsRaw },
            })),
          }
        : {}),
    };
    // The wire has no error flag for tool results: an error travels in the content.
    return [
      assistant,
      ...results.map((result): JsonValue => ({
        role: 'tool',
        tool_call_id: result.callId,
        content: result.content,
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
    let key = emptyPrefix;
    let changed = false;
    const messages: JsonValue[] = [];
    for (const message of asArray(request['messages'])) {
      const parsed = parseMessage(asObject(message));
      if (parsed) key = nextKey(key, parsed);
      const replacement = parsed?.role === 'assistant' ? replace(key) : undefined;
      if (replacement) {
        messages.push(...replacement);
        changed = true;
      } else messages.push(message);
    }
    return changed ? { ...request, messages } : undefined;
  },

  toolResults(body) {
    return pairToolResults(
      asArray(asObject(body)?.['messages']).flatMap(
        (message) => parseMessage(asObject(message)) ?? [],
      ),
    );
  },

  withToolResults(body, contents) {
    const request = asObject(body) ?? {};
    const messages = asArray(request['messages']).map((message) => {
      const object = asObject(message);
      const callId = object?.['role'] === 'tool' ? object['tool_call_id'] : undefined;
      const content = typeof callId === 'string' ? contents.get(callId) : undefined;
      return object && content !== undefined ? { ...object, content } : message;
    });
    return { ...request, messages };
  },

  withoutCalls(body, form, drop) {
    const completionText = form.stream ? toCompletionBody(body) : body;
    const parsed = completionText === undefined ? undefined : parseJson(completionText);
    const completion = parsed?.ok ? asObject(parsed.value) : undefined;
    if (!completion) return undefined;
    const choices = asArray(completion['choices']).map((choiceValue) => {
      const choice = asObject(choiceValue) ?? {};
      const message = asObject(choice['message']) ?? {};
      const kept = asArray(message['tool_calls']).filter(
        (call) => !drop.has(String(asObject(call)?.['id'])),
      );
      const { tool_calls: _calls, ...rest } = message;
      return { ...choice, message: { ...rest, ...(kept.length > 0 ? { tool_calls: kept } : {}) } };
    });
    const visible = JSON.stringify({ ...completion, choices });
    return form.stream ? toStreamBody(visible, form.includeUsage) : visible;
  },
};
