import fnv1a from '@sindresorhus/fnv1a';
import type { AssistantOutput, Interaction, Message, ToolCall } from './trace.js';

/**
 * Groups round trips that carry no explicit session id into conversations: a request whose
 * messages extend an earlier request plus that request's answer continues the earlier
 * interaction's session. Each interaction leaves one key (a rolling hash of its messages and
 * its answer); a later request hashes its own message prefix once and looks the key up, so the
 * cost per request is one pass over its messages, however many interactions came before.
 *
 * Tool calls are identified by their provider id where there is one, so an agent that
 * re-serialises the arguments it echoes back still chains. Two identical conversations running
 * at the same time cannot be told apart: give such runs explicit session ids.
 */
export class ConversationChain {
  private readonly sessions = new Map<bigint, string>();

  constructor(private readonly capacity = 100_000) {}

  /** The session an interaction belongs to: its explicit one, else the conversation it continues, else its own. */
  sessionOf(interaction: Interaction): string {
    if (interaction.sessionId !== interaction.id) return interaction.sessionId;
    const keys = rollingKeys(interaction.request.messages);
    const messages = interaction.request.messages;
    for (let position = messages.length - 1; position >= 0; position--) {
      if (messages[position]?.role !== 'assistant') continue;
      const session = this.sessions.get(keys[position] as bigint);
      if (session !== undefined) return session;
    }
    return interaction.id;
  }

  /** Notes an interaction's answer so the request that continues it finds `session`. */
  remember(interaction: Interaction, session: string): void {
    const output = interaction.response?.output;
    if (!output) return;
    const keys = rollingKeys(interaction.request.messages);
    const key = next(keys[keys.length - 1] ?? seed, assistantForm(output));
    this.sessions.delete(key);
    this.sessions.set(key, session);
    // Oldest first out: a conversation idle for 100k round trips is unlikely to resume.
    if (this.sessions.size > this.capacity) this.sessions.delete(this.sessions.keys().next().value as bigint);
  }

  /** Assigns and remembers in one step: the session, as `sessionOf` gives it. */
  assign(interaction: Interaction): string {
    const session = this.sessionOf(interaction);
    this.remember(interaction, session);
    return session;
  }
}

const seed = 0n;
const buffer = new Uint8Array(4096);

function next(previous: bigint, form: string): bigint {
  return fnv1a(`${previous}\u0000${form}`, { size: 64, utf8Buffer: buffer });
}

function rollingKeys(messages: readonly Message[]): bigint[] {
  const keys: bigint[] = [];
  let key = seed;
  for (const message of messages) keys.push((key = next(key, messageForm(message.role, message.text, message.toolCalls, message.toolCallId))));
  return keys;
}

function assistantForm(output: AssistantOutput): string {
  return messageForm('assistant', output.text, output.toolCalls, undefined);
}

function messageForm(role: string, text: string, calls: readonly ToolCall[], toolCallId: string | undefined): string {
  let form = `${role}\u0001${text.trim()}\u0001${toolCallId ?? ''}`;
  for (const call of calls) form += `\u0001${call.id ?? `${call.name}(${call.argumentsRaw})`}`;
  return form;
}
