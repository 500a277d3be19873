import { keyAfter, nextKey } from '../../trace/prefix-hash.js';
import type { AssistantOutput, JsonValue } from '../../trace/trace.js';
import { asArray, asObject, parseJson, type JsonObject } from '../json-access.js';
import { pairToolResults } from '../pair-tool-results.js';
import type { ToolLoopWire, ToolResultMessage } from '../provider-adapter.js';
import { finishedGeminiAnswer, writeGeminiAnswer } from './convert-gemini-body.js';
import { isMadeUpCallId } from './gemini-call-id.js';
import { modelCalls, readContents, systemMessages } from './parse-gemini-request.js';
import { readGeminiText } from './read-gemini-body.js';

/**
 * The in-proxy tool loop in Gemini terms: the model's turn is a `role: "model"` content — its
 * parts exactly as the answer carried them, so every `thoughtSignature` goes back byte for byte
 * (Gemini 3 refuses a conversation whose function calls lost theirs) — and the results are one
 * `role: "user"` content of `functionResponse` parts. Results for calls of one turn share that
 * one content, so the mocks' results are merged with the agent's own.
 */
export const geminiToolLoop: ToolLoopWire = {
  turnMessages(output, results, answerBody) {
    const model: JsonValue = {
      role: 'model',
      parts: (answerBody === undefined ? undefined : answerParts(answerBody)) ?? partsOf(output),
    };
    if (results.length === 0) return [model];
    const names = new Map(output.toolCalls.map((call) => [call.id, call.name]));
    return [model, { role: 'user', parts: results.map((result) => responsePart(result, names)) }];
  },

  appendMessages(body, messages) {
    const request = asObject(body) ?? {};
    return { ...request, contents: [...asArray(request['contents']), ...messages] };
  },

  splice(body, replace) {
    const request = asObject(body);
    if (!request) return undefined;
    // Keyed as the request parser reads it, system instruction first: the loop kept the hidden history under those keys.
    let key = keyAfter(systemMessages(request));
    const contents = asArray(request['contents']);
    const read = readContents(contents);
    let changed = false;
    let mergeNext = false;
    const spliced: JsonValue[] = [];
    contents.forEach((content, index) => {
      const object = asObject(content);
      for (const message of read[index] ?? []) key = nextKey(key, message);
      if (mergeNext && object?.['role'] !== 'model') {
        // The mocks' results and the agent's own answer one turn: one user content.
        const previous = asObject(spliced.pop()) ?? {};
        spliced.push({
          role: 'user',
          parts: [...asArray(previous['parts']), ...asArray(object?.['parts'])],
        });
        mergeNext = false;
        return;
      }
      mergeNext = false;
      const replacement = object?.['role'] === 'model' ? replace(key) : undefined;
      if (replacement) {
        spliced.push(...replacement);
        changed = true;
        mergeNext = asObject(replacement.at(-1))?.['role'] === 'user';
      } else spliced.push(content);
    });
    return changed ? { ...request, contents: spliced } : undefined;
  },

  toolResults(body) {
    return pairToolResults(readContents(asObject(body)?.['contents']).flat());
  },

  withToolResults(body, contents) {
    const request = asObject(body) ?? {};
    const list = asArray(request['contents']);
    const read = readContents(list);
    const replaced = list.map((content, index) => {
      const object = asObject(content);
      if (object?.['role'] === 'model') return content;
      // The tool messages of a content are its functionResponse parts, in order.
      const answered = (read[index] ?? []).filter((message) => message.role === 'tool');
      let position = 0;
      const parts = asArray(object?.['parts']).map((part) => {
        const response = asObject(asObject(part)?.['functionResponse']);
        if (!response) return part;
        const callId = answered[position++]?.toolCallId;
        const text = callId === undefined ? undefined : contents.get(callId);
        return text === undefined
          ? part
          : {
              ...asObject(part),
              functionResponse: { ...response, response: payload(text, false) },
            };
      });
      return object ? { ...object, parts } : content;
    });
    return { ...request, contents: replaced };
  },

  withoutCalls(body, _form, drop) {
    const merged = finishedGeminiAnswer(body);
    if (!merged) return undefined;
    const candidates = asArray(merged.response['candidates']).map((value, index) => {
      const candidate = asObject(value) ?? {};
      if (index !== 0) return value;
      const parts = asArray(asObject(candidate['content'])?.['parts']).map(
        (part) => asObject(part) ?? {},
      );
      const ids = modelCalls(parts).map((call) => call.id);
      let call = 0;
      const kept = parts.filter(
        (part) => part['functionCall'] === undefined || !drop.has(ids[call++] ?? ''),
      );
      return { ...candidate, content: { ...asObject(candidate['content']), parts: kept } };
    });
    return writeGeminiAnswer({ ...merged.response, candidates }, readGeminiText(body).form);
  },
};

/** The model content of a finished answer (candidate 0), parts as sent. */
function answerParts(body: string): JsonValue[] | undefined {
  const merged = finishedGeminiAnswer(body);
  const candidate = asObject(asArray(merged?.response['candidates'])[0]);
  const parts = asObject(candidate?.['content'])?.['parts'];
  return Array.isArray(parts) ? parts : undefined;
}

/** A model content rebuilt from the trace (when the answer's own parts are not at hand). */
function partsOf(output: AssistantOutput): JsonValue[] {
  return [
    ...(output.text !== '' ? [{ text: output.text }] : []),
    ...output.toolCalls.map((call): JsonValue => ({
      functionCall: {
        ...(call.id !== undefined && !isMadeUpCallId(call.id) ? { id: call.id } : {}),
        name: call.name,
        args: call.arguments.ok ? call.arguments.value : {},
      },
    })),
  ];
}

function responsePart(
  result: ToolResultMessage,
  names: ReadonlyMap<string | undefined, string>,
): JsonValue {
  return {
    functionResponse: {
      ...(isMadeUpCallId(result.callId) ? {} : { id: result.callId }),
      name: names.get(result.callId) ?? '',
      response: payload(result.content, result.isError),
    },
  };
}

/**
 * A result as `functionResponse.response`, which must be an object: a JSON object result is sent
 * as it is; anything else under `output`, or under `error` for a failure (the keys Gemini's
 * documentation gives for a function's output and its error).
 */
function payload(content: string, isError: boolean): JsonObject {
  const parsed = parseJson(content);
  const value = parsed.ok ? parsed.value : content;
  if (isError) return { error: value };
  return asObject(value) ?? { output: value };
}
