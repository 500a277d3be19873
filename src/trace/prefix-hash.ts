import type { AssistantOutput, Message, ToolCall } from './trace.js';

/**
 * Rolling hashes of conversation prefixes: the key after a message depends on every message
 * before it. Keys of a request's messages are computed in one pass; a later request that
 * repeats the prefix reaches the same keys. Tool calls count by their provider id where there is
 * one, so an agent that re-serialises echoed arguments still reaches the same key.
 */
export type PrefixKey = bigint;

export const emptyPrefix: PrefixKey = 0n;

/** The key after `message`, following the prefix `previous`. */
export function nextKey(previous: PrefixKey, message: Message): PrefixKey {
  return extend(previous, form(message.role, message.text, message.toolCalls, message.toolCallId));
}

/** The key after the model's answer (an assistant message), following `previous`. */
export function answerKey(
  previous: PrefixKey,
  output: Pick<AssistantOutput, 'text' | 'toolCalls'>,
): PrefixKey {
  return extend(previous, form('assistant', output.text, output.toolCalls, undefined));
}

/** The key after the last of `messages` (`emptyPrefix` for none): where a wire's own list starts when a system prompt precedes it. */
export function keyAfter(messages: readonly Message[]): PrefixKey {
  let key = emptyPrefix;
  for (const message of messages) key = nextKey(key, message);
  return key;
}

/** The key after each message of a conversation. */
export function prefixKeys(messages: readonly Message[]): PrefixKey[] {
  const keys: PrefixKey[] = [];
  let key = emptyPrefix;
  for (const message of messages) keys.push((key = nextKey(key, message)));
  return keys;
}

/**
 * 64 bits from two independent 32-bit lanes over the UTF-16 code units, seeded by the previous
 * key: FNV-1a in one lane, a multiply-xorshift in the other. In-memory keys only (never stored),
 * so the exact function may change; plain 32-bit arithmetic keeps it at a few ns per character,
 * where a BigInt FNV-1a over UTF-8 took ~60.
 */
function extend(previous: PrefixKey, text: string): PrefixKey {
  let high = Number(previous >> 32n) ^ 0x811c9dc5;
  let low = Number(previous & 0xffffffffn) ^ 0x9747b28c;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x5bd1e995);
    low ^= low >>> 15;
  }
  // The length ends the text: "ab" + "c" and "a" + "bc" extend differently.
  high = Math.imul(high ^ text.length, 0x01000193);
  low = Math.imul(low ^ (low >>> 13) ^ text.length, 0xc2b2ae35);
  return (BigInt(high >>> 0) << 32n) | BigInt((low ^ (low >>> 16)) >>> 0);
}

function form(
  role: string,
  text: string,
  calls: readonly ToolCall[],
  toolCallId: string | undefined,
): string {
  let result = `${role}\u0001${text.trim()}\u0001${toolCallId ?? ''}`;
  for (const call of calls) result += `\u0001${call.id ?? `${call.name}(${call.argumentsRaw})`}`;
  return result;
}
