import type {
  AssistantOutput,
  FinishReason,
  JsonValue,
  ResponseSummary,
  ToolCall,
  Usage,
} from '../../trace/trace.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from '../json-access.js';
import { geminiHostedCalls } from './gemini-hosted-calls.js';
import { geminiCalls, geminiText } from './gemini-parts.js';
import type { MergedResponse } from './merge-gemini-chunks.js';

/**
 * A merged answer as the trace's summary: candidate 0 is the output, the others alternatives.
 * `finished` is false for a stream cut before its end: every call is then incomplete, as on every
 * wire (the model had not finished its turn).
 */
export function summariseGeminiResponse(
  merged: MergedResponse,
  finished: boolean,
): ResponseSummary {
  const response = merged.response;
  const outputs = asArray(response['candidates']).map((value) => {
    const candidate = asObject(value) ?? {};
    const index = asNumber(candidate['index']) ?? 0;
    return outputOf(candidate, finished, merged.unfinishedCalls.get(index) ?? new Set());
  });
  const blocked = asString(asObject(response['promptFeedback'])?.['blockReason']);
  const [first, ...alternatives] = outputs;
  return {
    id: asString(response['responseId']),
    model: asString(response['modelVersion']),
    output: first ?? {
      text: '',
      refusal: undefined,
      toolCalls: [],
      finishReason:
        blocked === undefined
          ? { unified: 'unknown', raw: undefined }
          : { unified: 'content-filter', raw: blocked },
    },
    alternatives,
    usage: geminiUsage(response['usageMetadata']),
  };
}

function outputOf(
  candidate: JsonObject,
  finished: boolean,
  unfinished: ReadonlySet<number>,
): AssistantOutput {
  const parts = asArray(asObject(candidate['content'])?.['parts']).map(
    (part) => asObject(part) ?? {},
  );
  const toolCalls = geminiCalls(parts).map(({ call, position }): ToolCall => ({
    ...call,
    complete: finished && !unfinished.has(position),
  }));
  const hosted = geminiHostedCalls(candidate, finished);
  return {
    text: geminiText(parts),
    refusal: undefined,
    toolCalls,
    ...(hosted.length > 0 ? { hostedCalls: hosted } : {}),
    finishReason: mapGeminiFinishReason(asString(candidate['finishReason']), toolCalls.length > 0),
  };
}

/**
 * Maps Gemini's `finishReason` onto the unified set. Gemini ends a turn that calls functions with
 * `STOP`, like any other: with calls it is `tool-calls`, as the other wires say it.
 */
export function mapGeminiFinishReason(raw: string | undefined, calls: boolean): FinishReason {
  switch (raw) {
    case 'STOP':
      return { unified: calls ? 'tool-calls' : 'stop', raw };
    case 'MAX_TOKENS':
      return { unified: 'length', raw };
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
      return { unified: 'content-filter', raw };
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
      return { unified: 'error', raw };
    case undefined:
      return { unified: 'unknown', raw };
    default:
      return { unified: 'other', raw };
  }
}

/**
 * Reads `usageMetadata`. Output counts the thoughts with the answer (`thoughtsTokenCount` is billed
 * as output, as OpenAI's reasoning tokens are part of its completion tokens); the thoughts alone
 * are the reasoning tokens; cached content counts as cached input.
 */
export function geminiUsage(value: JsonValue | undefined): Usage | undefined {
  const usage = asObject(value);
  if (!usage) return undefined;
  const input = asNumber(usage['promptTokenCount']);
  const answer = asNumber(usage['candidatesTokenCount']);
  const thoughts = asNumber(usage['thoughtsTokenCount']);
  if (input === undefined && answer === undefined && thoughts === undefined) return undefined;
  return {
    inputTokens: input,
    outputTokens:
      answer === undefined && thoughts === undefined ? undefined : (answer ?? 0) + (thoughts ?? 0),
    totalTokens: asNumber(usage['totalTokenCount']),
    cachedInputTokens: asNumber(usage['cachedContentTokenCount']),
    reasoningTokens: thoughts,
  };
}
