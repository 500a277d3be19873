import fnv1a from '@sindresorhus/fnv1a';
import { emptyPrefix, keyAfter, nextKey, type PrefixKey } from '../../trace/prefix-hash.js';
import type { JsonValue, Message } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson, type JsonObject } from '../json-access.js';
import type { ToolLoopWire } from '../provider-adapter.js';
import { toResponsesObject, toResponsesStream } from './convert-responses-body.js';
import { instructionMessages, parseInputItem } from './parse-responses-request.js';

const isAssistantItem = (item: JsonObject | undefined): boolean =>
  item?.['type'] === 'function_call' ||
  (item?.['role'] === 'assistant' && (item['type'] === undefined || item['type'] === 'message'));

/**
 * The in-proxy tool loop in Responses terms: the model's turn is its output items (a message,
 * `function_call`s), the results are `function_call_output` items. A request that resends its
 * history gets hidden items spliced into `input`; one that continues a stored response by
 * `previous_response_id` has its hidden rounds chained server-side (each hidden round continues
 * the one before by id), and only the mocks' outputs for the response it continues are added.
 */
export const responsesToolLoop: ToolLoopWire = {
  turnMessages(output, results) {
    return [
      ...(output.text !== ''
        ? [
            {
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: output.text, annotations: [] }],
            } as JsonValue,
          ]
        : []),
      ...output.toolCalls.map((call): JsonValue => ({
        type: 'function_call',
        call_id: call.id ?? '',
        name: call.name,
        arguments: call.argumentsRaw,
      })),
      ...results.map((result): JsonValue => ({
        type: 'function_call_output',
        call_id: result.callId,
        output: result.content,
      })),
    ];
  },

  appendMessages(body, items) {
    const request = asObject(body) ?? {};
    return { ...request, input: [...inputItems(request['input']), ...items] };
  },

  continueAfter(body, responseId, results) {
    const request = asObject(body) ?? {};
    if (request['previous_response_id'] === undefined || responseId === undefined) return undefined;
    return {
      ...request,
      previous_response_id: responseId,
      input: results.map((result): JsonValue => ({
        type: 'function_call_output',
        call_id: result.callId,
        output: result.content,
      })),
    };
  },

  responseKey(responseId) {
    return fnv1a(`response\u0000${responseId}`, { size: 64 });
  },

  referenceKeys(answerBody) {
    const text = answerBody.trimStart().startsWith('{')
      ? answerBody
      : toResponsesObject(answerBody);
    const parsed = text === undefined ? undefined : parseJson(text);
    const output = parsed?.ok ? asArray(asObject(parsed.value)?.['output']) : [];
    return output.flatMap((item) => {
      const id = asString(asObject(item)?.['id']);
      return id === undefined ? [] : [referenceKey(id)];
    });
  },

  splice(body, replace) {
    const request = asObject(body);
    if (!request) return undefined;
    const previous = asString(request['previous_response_id']);
    const items = inputItems(request['input']);
    if (previous !== undefined) {
      // The conversation is server-side: add the mocks' outputs for the calls of the response continued, if it had any.
      const kept = replace(this.responseKey?.(previous) ?? emptyPrefix);
      const outputs = kept ? trailingOutputs(kept) : [];
      const already = new Set(items.map((item) => asObject(item)?.['call_id']));
      const missing = outputs.filter((item) => !already.has(asObject(item)?.['call_id']));
      return missing.length > 0 ? { ...request, input: [...missing, ...items] } : undefined;
    }
    // Keyed as the request parser reads it, instructions first: the loop stored the hidden history under those keys.
    let key: PrefixKey = keyAfter(instructionMessages(request));
    let changed = false;
    const spliced: JsonValue[] = [];
    const putBack = new Set<readonly JsonValue[]>();
    for (let index = 0; index < items.length;) {
      const item = asObject(items[index]);
      const referenced = item?.['type'] === 'item_reference' ? asString(item['id']) : undefined;
      const before = referenced === undefined ? undefined : replace(referenceKey(referenced));
      if (before && !putBack.has(before)) {
        // An answer sent back by reference: the hidden rounds go in front of its first item.
        spliced.push(...before);
        putBack.add(before);
        changed = true;
      }
      if (!isAssistantItem(item)) {
        for (const part of parseInputItem(item)) key = nextKey(key, part);
        spliced.push(items[index] as JsonValue);
        index++;
        continue;
      }
      // One model turn is a run of assistant items: it is one assistant message in the trace.
      // Grouped as the request parser groups them: a message after calls starts the next turn.
      let end = index + 1;
      let calls = asObject(items[index])?.['type'] === 'function_call';
      while (
        end < items.length &&
        isAssistantItem(asObject(items[end])) &&
        (asObject(items[end])?.['type'] === 'function_call' || !calls)
      ) {
        calls ||= asObject(items[end])?.['type'] === 'function_call';
        end++;
      }
      const turn = mergeTurn(
        items.slice(index, end).flatMap((value) => parseInputItem(asObject(value))),
      );
      key = nextKey(key, turn);
      const replacement = replace(key);
      if (replacement) {
        spliced.push(...replacement);
        changed = true;
      } else spliced.push(...items.slice(index, end));
      index = end;
    }
    return changed ? { ...request, input: spliced } : undefined;
  },

  toolResults(body) {
    const calls = new Map<string, { name: string; argumentsRaw: string }>();
    const results: { callId: string; name: string; argumentsRaw: string; content: string }[] = [];
    for (const value of inputItems(asObject(body)?.['input'])) {
      const item = asObject(value);
      const callId = asString(item?.['call_id']);
      if (!item || callId === undefined) continue;
      if (item['type'] === 'function_call')
        calls.set(callId, {
          name: asString(item['name']) ?? '',
          argumentsRaw: asString(item['arguments']) ?? '',
        });
      const answered = item['type'] === 'function_call_output' ? calls.get(callId) : undefined;
      if (answered)
        results.push({
          callId,
          ...answered,
          content:
            typeof item['output'] === 'string'
              ? item['output']
              : JSON.stringify(item['output'] ?? ''),
        });
    }
    return results;
  },

  withToolResults(body, contents) {
    const request = asObject(body) ?? {};
    const input = inputItems(request['input']).map((value) => {
      const item = asObject(value);
      const callId =
        item?.['type'] === 'function_call_output' ? asString(item['call_id']) : undefined;
      const content = callId !== undefined ? contents.get(callId) : undefined;
      return item && content !== undefined ? { ...item, output: content } : value;
    });
    return { ...request, input };
  },

  withoutCalls(body, form, drop) {
    const responseText = form.stream ? toResponsesObject(body) : body;
    const parsed = responseText === undefined ? undefined : parseJson(responseText);
    const response = parsed?.ok ? asObject(parsed.value) : undefined;
    if (!response) return undefined;
    const output = asArray(response['output']).filter((value) => {
      const item = asObject(value);
      return !(item?.['type'] === 'function_call' && drop.has(asString(item['call_id']) ?? ''));
    });
    const visible = JSON.stringify({ ...response, output });
    return form.stream ? toResponsesStream(visible) : visible;
  },
};

function referenceKey(itemId: string): PrefixKey {
  return fnv1a(`item\u0000${itemId}`, { size: 64 });
}

function inputItems(input: JsonValue | undefined): JsonValue[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return [...asArray(input)];
}

/** The function_call_output items after the last function_call: the results of the last turn. */
function trailingOutputs(items: readonly JsonValue[]): JsonValue[] {
  const lastCall = items.map((item) => asObject(item)?.['type']).lastIndexOf('function_call');
  return items
    .slice(lastCall + 1)
    .filter((item) => asObject(item)?.['type'] === 'function_call_output');
}

function mergeTurn(parts: readonly Message[]): Message {
  const calls = parts.flatMap((part) => part.toolCalls).map((call, index) => ({ ...call, index }));
  return {
    role: 'assistant',
    text: parts
      .map((part) => part.text)
      .filter(Boolean)
      .join('\n'),
    toolCalls: calls,
    toolCallId: undefined,
    isError: undefined,
  };
}
