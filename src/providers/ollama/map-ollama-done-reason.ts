import type { FinishReason } from '../../trace/trace.js';

/**
 * Maps Ollama's `done_reason` onto the unified set. Ollama says `stop` for a turn that called
 * tools too (it has no `tool_calls` reason), so the calls decide; a finished turn from a server
 * old enough to send no reason is a normal stop.
 */
export function mapOllamaDoneReason(
  raw: string | undefined,
  done: boolean,
  hasCalls: boolean,
): FinishReason {
  if (!done) return { unified: 'unknown', raw };
  switch (raw) {
    case undefined:
    case 'stop':
      return { unified: hasCalls ? 'tool-calls' : 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    default:
      return { unified: 'other', raw };
  }
}
