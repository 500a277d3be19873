import type { ServerSentEvent } from '../../sse/decode-sse.js';
import type { AssistantOutput, ResponseSummary, ToolCall, Usage } from '../../trace/trace.js';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  parseJson,
  type JsonObject,
} from '../json-access.js';
import type { ParsedResponse, ResponseEnding } from '../provider-adapter.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
import { parseOpenAiChatUsage } from './openai-chat-usage.js';

interface CallState {
  id: string | undefined;
  index: number;
  name: string;
  argumentParts: string[];
}

interface ChoiceState {
  textParts: string[];
  refusalParts: string[] | undefined;
  /** Calls keyed by `i:<index>` or, when a provider omits the index, `id:<id>`. */
  calls: Map<string, CallState>;
  lastCallKey: string | undefined;
  finishReason: string | undefined;
}

/**
 * Reassembles a streamed Chat Completions turn from its SSE events. Deltas of parallel tool
 * calls may interleave; they are keyed by `index`, falling back to `id` where a provider omits
 * the index. Calls of a choice the stream never finished are flagged incomplete.
 */
export function assembleOpenAiChatStream(
  events: readonly ServerSentEvent[],
  ending: ResponseEnding,
): ParsedResponse {
  const choices = new Map<number, ChoiceState>();
  let id: string | undefined;
  let model: string | undefined;
  let usage: Usage | undefined;
  let done = false;
  let streamError: string | undefined;

  for (const event of events) {
    if (event.data === '[DONE]') {
      done = true;
      continue;
    }
    const parsed = parseJson(event.data);
    const chunk = parsed.ok ? asObject(parsed.value) : undefined;
    if (!chunk) {
      streamError ??= `unparseable stream event: ${event.data.slice(0, 200)}`;
      continue;
    }
    const error = asObject(chunk['error']);
    if (error || event.event === 'error') {
      streamError = asString(error?.['message']) ?? event.data.slice(0, 500);
      continue;
    }
    id ??= asString(chunk['id']);
    model ??= asString(chunk['model']);
    usage = parseOpenAiChatUsage(chunk['usage']) ?? usage;
    for (const choice of asArray(chunk['choices'])) applyChoiceDelta(choices, asObject(choice));
  }

  const ordered = [...choices.entries()].sort(([a], [b]) => a - b).map(([, state]) => state);
  const finished =
    ordered.length > 0 && ordered.every((choice) => choice.finishReason !== undefined);
  const outputs = ordered.map((choice) => toOutput(choice));
  const [output = emptyOutput(), ...alternatives] = outputs;
  const response: ResponseSummary = { id, model, output, alternatives, usage };

  if (streamError !== undefined) return { response, status: 'upstream-error', error: streamError };
  if (ending === 'client-aborted')
    return { response, status: 'aborted', error: 'the agent disconnected mid-stream' };
  if (done || (finished && ending === 'finished'))
    return { response, status: 'complete', error: undefined };
  const cause =
    ending === 'upstream-failed'
      ? 'the upstream connection failed mid-stream'
      : 'the stream ended before the model finished';
  return { response, status: 'truncated', error: cause };
}

function applyChoiceDelta(choices: Map<number, ChoiceState>, choice: JsonObject | undefined): void {
  if (!choice) return;
  const index = asNumber(choice['index']) ?? 0;
  let state = choices.get(index);
  if (!state) {
    state = {
      textParts: [],
      refusalParts: undefined,
      calls: new Map(),
      lastCallKey: undefined,
      finishReason: undefined,
    };
    choices.set(index, state);
  }
  const delta = asObject(choice['delta']);
  const content = asString(delta?.['content']);
  if (content) state.textParts.push(content);
  const refusal = asString(delta?.['refusal']);
  if (refusal !== undefined) (state.refusalParts ??= []).push(refusal);
  for (const call of asArray(delta?.['tool_calls'])) applyToolCallDelta(state, asObject(call));
  const legacy = asObject(delta?.['function_call']);
  if (legacy) applyToolCallDelta(state, { index: 0, function: legacy });
  const finishReason = asString(choice['finish_reason']);
  if (finishReason) state.finishReason = finishReason;
}

function applyToolCallDelta(state: ChoiceState, delta: JsonObject | undefined): void {
  if (!delta) return;
  const index = asNumber(delta['index']);
  const id = asString(delta['id']);
  const key =
    index !== undefined ? `i:${index}` : id !== undefined ? `id:${id}` : state.lastCallKey;
  if (key === undefined) return;
  let call = state.calls.get(key);
  if (!call) {
    call = { id, index: index ?? state.calls.size, name: '', argumentParts: [] };
    state.calls.set(key, call);
  }
  state.lastCallKey = key;
  if (id && !call.id) call.id = id;
  const fn = asObject(delta['function']);
  const name = asString(fn?.['name']);
  // Names arrive whole in the first delta; a few compatible servers repeat them, so never append.
  if (name) call.name = name;
  const argumentText = asString(fn?.['arguments']);
  if (argumentText) call.argumentParts.push(argumentText);
}

function toOutput(choice: ChoiceState): AssistantOutput {
  const complete = choice.finishReason !== undefined;
  const toolCalls: ToolCall[] = [...choice.calls.values()]
    .sort((a, b) => a.index - b.index)
    .map((call) => {
      const argumentsRaw = call.argumentParts.join('');
      return {
        id: call.id,
        index: call.index,
        name: call.name,
        argumentsRaw,
        arguments: parseJson(argumentsRaw),
        complete,
      };
    });
  return {
    text: choice.textParts.join(''),
    refusal: choice.refusalParts?.join(''),
    toolCalls,
    finishReason: mapOpenAiChatFinishReason(choice.finishReason),
  };
}

export function emptyOutput(): AssistantOutput {
  return {
    text: '',
    refusal: undefined,
    toolCalls: [],
    finishReason: mapOpenAiChatFinishReason(undefined),
  };
}
