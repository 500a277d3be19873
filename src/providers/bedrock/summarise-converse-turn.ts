import type { FinishReason, ResponseSummary, ToolCall, Usage } from '../../trace/trace.js';
import { asNumber, parseJson, type JsonObject } from '../json-access.js';
import type { ConverseTurn } from './converse-turn.js';

/** Bedrock's `stopReason` values in the trace's vocabulary. */
const finishReasons: ReadonlyMap<string, FinishReason['unified']> = new Map([
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['tool_use', 'tool-calls'],
  ['max_tokens', 'length'],
  ['model_context_window_exceeded', 'length'],
  ['guardrail_intervened', 'content-filter'],
  ['content_filtered', 'content-filter'],
  ['malformed_model_output', 'error'],
  ['malformed_tool_use', 'error'],
]);

/** The trace's view of a Converse turn; calls still open when the stream ended are incomplete. */
export function summariseConverseTurn(turn: ConverseTurn, model?: string): ResponseSummary {
  const toolCalls: ToolCall[] = [];
  let text = '';
  for (const block of turn.blocks) {
    if (block.kind === 'text') text += block.text;
    if (block.kind !== 'toolUse') continue;
    // A call without arguments streams no input delta at all; its input is the empty object.
    const argumentsRaw = block.input === '' && block.closed ? '{}' : block.input;
    toolCalls.push({
      id: block.toolUseId,
      index: toolCalls.length,
      name: block.name,
      argumentsRaw,
      arguments: parseJson(argumentsRaw),
      complete: block.closed && turn.stopped,
    });
  }
  const raw = turn.stopReason;
  return {
    id: undefined,
    model,
    output: {
      text,
      refusal: undefined,
      toolCalls,
      finishReason: {
        unified: raw === undefined ? 'unknown' : (finishReasons.get(raw) ?? 'other'),
        raw,
      },
    },
    alternatives: [],
    usage: turn.usage ? usageOf(turn.usage) : undefined,
  };
}

function usageOf(usage: JsonObject): Usage {
  return {
    inputTokens: asNumber(usage['inputTokens']),
    outputTokens: asNumber(usage['outputTokens']),
    totalTokens: asNumber(usage['totalTokens']),
    cachedInputTokens: asNumber(usage['cacheReadInputTokens']),
    reasoningTokens: undefined,
  };
}
