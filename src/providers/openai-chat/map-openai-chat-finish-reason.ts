import type { FinishReason } from '../../trace/trace.js';

/** Maps Chat Completions `finish_reason` values onto the unified set. */
export function mapOpenAiChatFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case undefined:
      return { unified: 'unknown', raw };
    default:
      return { unified: 'other', raw };
  }
}
