import type { Message } from '../trace/trace.js';

/** A tool result the agent sent, with the call it answers. */
export interface PairedToolResult {
  readonly callId: string;
  readonly name: string;
  readonly argumentsRaw: string;
  readonly content: string;
}

/**
 * The tool results a conversation carries, each paired with the call it answers (found in an
 * earlier assistant message of the same conversation); results for calls not in it are left out.
 */
export function pairToolResults(messages: Iterable<Message>): PairedToolResult[] {
  const calls = new Map<string, { name: string; argumentsRaw: string }>();
  const results: PairedToolResult[] = [];
  for (const message of messages) {
    for (const call of message.toolCalls)
      if (call.id !== undefined)
        calls.set(call.id, { name: call.name, argumentsRaw: call.argumentsRaw });
    const answered =
      message.role === 'tool' && message.toolCallId !== undefined
        ? calls.get(message.toolCallId)
        : undefined;
    if (answered && message.toolCallId !== undefined)
      results.push({ callId: message.toolCallId, ...answered, content: message.text });
  }
  return results;
}
