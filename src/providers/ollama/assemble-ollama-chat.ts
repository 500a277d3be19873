import type { ResponseSummary, Usage } from '../../trace/trace.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asBoolean, asNumber, asObject, asString } from '../json-access.js';
import type { ParsedResponse, ResponseEnding } from '../provider-adapter.js';
import type { NdjsonLines } from './decode-ndjson.js';
import { mapOllamaDoneReason } from './map-ollama-done-reason.js';
import { readOllamaToolCall } from './ollama-tool-call.js';

/** What the objects of an `/api/chat` answer add up to, whole or streamed. */
interface ChatState {
  model: string | undefined;
  textParts: string[];
  /** Each call as sent, in arrival order (calls arrive whole, one or more per object). */
  calls: JsonValue[];
  /** The object with `done: true`, when one arrived. */
  final: { readonly [key: string]: JsonValue } | undefined;
  /** The message of the first object with an `error` field: Ollama's mid-stream error line. */
  error: string | undefined;
}

/** Folds the objects of an answer: `message.content` deltas, whole `message.tool_calls`, the `done` object. */
function foldChat(values: readonly JsonValue[]): ChatState {
  const state: ChatState = {
    model: undefined,
    textParts: [],
    calls: [],
    final: undefined,
    error: undefined,
  };
  for (const value of values) {
    const chunk = asObject(value);
    if (!chunk) continue;
    const error = chunk['error'];
    if (error !== undefined) {
      state.error ??= asString(error) ?? JSON.stringify(error).slice(0, 500);
      continue;
    }
    state.model ??= asString(chunk['model']);
    const message = asObject(chunk['message']);
    const content = asString(message?.['content']);
    if (content) state.textParts.push(content);
    state.calls.push(...asArray(message?.['tool_calls']));
    if (asBoolean(chunk['done']) === true) state.final = chunk;
  }
  return state;
}

function summarise(state: ChatState, done: boolean): ResponseSummary {
  const toolCalls = state.calls.map((call, position) => readOllamaToolCall(call, position, done));
  const final = state.final;
  return {
    // Ollama names no response; a turn is identified by its conversation.
    id: undefined,
    model: state.model,
    output: {
      text: state.textParts.join(''),
      refusal: undefined,
      toolCalls,
      finishReason: mapOllamaDoneReason(
        asString(final?.['done_reason']),
        done,
        toolCalls.length > 0,
      ),
    },
    alternatives: [],
    usage: final ? readOllamaUsage(final) : undefined,
  };
}

/** `prompt_eval_count` and `eval_count` of the final object (Ollama leaves zero counts out). */
function readOllamaUsage(final: { readonly [key: string]: JsonValue }): Usage {
  const input = asNumber(final['prompt_eval_count']);
  const output = asNumber(final['eval_count']);
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input !== undefined && output !== undefined ? input + output : undefined,
    cachedInputTokens: undefined,
    reasoningTokens: undefined,
  };
}

/**
 * Reassembles a streamed `/api/chat` answer. The turn is finished when the object with
 * `done: true` arrived; an `{"error": …}` line (Ollama's mid-stream error, sent with status 200)
 * is an upstream error; a stream that ended before `done` is truncated and its calls incomplete.
 */
export function assembleOllamaChat(lines: NdjsonLines, ending: ResponseEnding): ParsedResponse {
  const state = foldChat(lines.values);
  const done = state.final !== undefined && state.error === undefined;
  const response = summarise(state, done);
  if (state.error !== undefined) return { response, status: 'upstream-error', error: state.error };
  if (lines.invalid !== undefined)
    return {
      response,
      status: 'upstream-error',
      error: `unparseable stream line: ${lines.invalid}`,
    };
  if (ending === 'client-aborted')
    return { response, status: 'aborted', error: 'the agent disconnected mid-stream' };
  if (done) return { response, status: 'complete', error: undefined };
  const cause =
    ending === 'upstream-failed'
      ? 'the upstream connection failed mid-stream'
      : 'the stream ended before the model finished';
  return { response, status: 'truncated', error: cause };
}

/** Reads a whole (`"stream": false`) `/api/chat` answer: one object, finished by definition. */
export function parseOllamaChatResponse(value: JsonValue): ResponseSummary {
  const state = foldChat([value]);
  state.final ??= asObject(value);
  return summarise(state, true);
}
