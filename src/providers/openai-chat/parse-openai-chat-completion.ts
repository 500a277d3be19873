import type { AssistantOutput, JsonValue, ResponseSummary, ToolCall } from '../../trace/trace.js';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  parseJson,
  type JsonObject,
} from '../json-access.js';
import { emptyOutput } from './assemble-openai-chat-stream.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
import { parseOpenAiChatUsage } from './openai-chat-usage.js';

/** Reads a whole (non-streamed) `chat.completion` object. */
export function parseOpenAiChatCompletion(body: JsonValue): ResponseSummary {
  const completion = asObject(body) ?? {};
  const outputs = asArray(completion['choices'])
    .map((choice) => asObject(choice))
    .filter((choice): choice is JsonObject => choice !== undefined)
    .sort((a, b) => (asNumber(a['index']) ?? 0) - (asNumber(b['index']) ?? 0))
    .map(toOutput);
  const [output = emptyOutput(), ...alternatives] = outputs;
  return {
    id: asString(completion['id']),
    model: asString(completion['model']),
    output,
    alternatives,
    usage: parseOpenAiChatUsage(completion['usage']),
  };
}

function toOutput(choice: JsonObject): AssistantOutput {
  const message = asObject(choice['message']);
  const legacy = asObject(message?.['function_call']);
  const calls = [
    ...asArray(message?.['tool_calls']).map((call) => asObject(call)),
    ...(legacy ? [{ function: legacy }] : []),
  ];
  return {
    text: asString(message?.['content']) ?? '',
    refusal: asString(message?.['refusal']),
    toolCalls: calls.map((call, index): ToolCall => {
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
    }),
    finishReason: mapOpenAiChatFinishReason(asString(choice['finish_reason'])),
  };
}
