import fnv1a from '@sindresorhus/fnv1a';
import type { AssistantOutput, Message, ToolCall } from './trace.js';

/**
 * Rolling hashes of conversation prefixes: the key after a message depends on every message
 * before it. Keys of a request's messages are computed in one pass; a later request that
 * repeats the prefix reaches the same keys. Tool calls count by their provider id where there is
 * one, so an agent that re-serialises echoed arguments still reaches the same key.
 */
export type PrefixKey = bigint;

export const emptyPrefix: PrefixKey = 0n;
const buffer = new Uint8Array(4096);

/** The key after `message`, following the prefix `previous`. */
export function nextKey(previous: PrefixKey, message: Message): PrefixKey {
  return extend(previous, form(message.role, message.text, message.toolCalls, message.toolCallId));
}

/** The key after the model's answer (an assistant message), following `previous`. */
export function answerKey(previous: PrefixKey, output: Pick<AssistantOutput, 'text' | 'toolCalls'>): PrefixKey {
  return extend(previous, form('assistant', output.text, output.toolCalls, undefined));
}

/** The key after each message of a conversation. */
export function prefixKeys(messages: readonly Message[]): PrefixKey[] {
  const keys: PrefixKey[] = [];
  let key = emptyPrefix;
  for (const message of messages) keys.push((key = nextKey(key, message)));
  return keys;
}

function extend(previous: PrefixKey, text: string): PrefixKey {
  return fnv1a(`${previous}\u0000${text}`, { size: 64, utf8Buffer: buffer });
}

function form(role: string, text: string, calls: readonly ToolCall[], toolCallId: string | undefined): string {
  let result = `${role}\u0001${text.trim()}\u0001${toolCallId ?? ''}`;
  for (const call of calls) result += `\u0001${call.id ?? `${call.name}(${call.argumentsRaw})`}`;
  return result;
}
