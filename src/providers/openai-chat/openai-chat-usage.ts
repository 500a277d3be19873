import type { JsonValue, Usage } from '../../trace/trace.js';
import { asNumber, asObject } from '../json-access.js';

/** Reads a Chat Completions `usage` object; undefined when absent or null. */
export function parseOpenAiChatUsage(value: JsonValue | undefined): Usage | undefined {
  const usage = asObject(value);
  if (!usage) return undefined;
  return {
    inputTokens: asNumber(usage['prompt_tokens']),
    outputTokens: asNumber(usage['completion_tokens']),
    totalTokens: asNumber(usage['total_tokens']),
    cachedInputTokens: asNumber(asObject(usage['prompt_tokens_details'])?.['cached_tokens']),
    reasoningTokens: asNumber(asObject(usage['completion_tokens_details'])?.['reasoning_tokens']),
  };
}
