import { answerKey, emptyPrefix, prefixKeys, type PrefixKey } from './prefix-hash.js';
import type { Interaction } from './trace.js';

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
  private readonly sessions = new Map<PrefixKey, string>();
  /** Sessions by response id, for requests that continue a stored response instead of resending history. */
  private readonly responses = new Map<string, string>();

  constructor(private readonly capacity = 100_000) {}

  /** The session an interaction belongs to: its explicit one, else the conversation it continues, else its own. */
  sessionOf(interaction: Interaction): string {
    return this.lookup(interaction, () => prefixKeys(interaction.request.messages));
  }

  /** Notes an interaction's answer so the request that continues it finds `session`. */
  remember(interaction: Interaction, session: string): void {
    this.store(interaction, session, prefixKeys(interaction.request.messages));
  }

  /** Assigns and remembers in one step, hashing the messages once: the session, as `sessionOf` gives it. */
  assign(interaction: Interaction): string {
    let keys: PrefixKey[] | undefined;
    const prefix = (): PrefixKey[] => (keys ??= prefixKeys(interaction.request.messages));
    const session = this.lookup(interaction, prefix);
    if (interaction.response?.output) this.store(interaction, session, prefix());
    return session;
  }

  private lookup(interaction: Interaction, keysOf: () => readonly PrefixKey[]): string {
    if (interaction.sessionId !== interaction.id) return interaction.sessionId;
    const continued =
      interaction.request.continues === undefined
        ? undefined
        : this.responses.get(interaction.request.continues);
    if (continued !== undefined) return continued;
    const messages = interaction.request.messages;
    const keys = keysOf();
    for (let position = messages.length - 1; position >= 0; position--) {
      if (messages[position]?.role !== 'assistant') continue;
      const session = this.sessions.get(keys[position] as PrefixKey);
      if (session !== undefined) return session;
    }
    return interaction.id;
  }

  private store(interaction: Interaction, session: string, keys: readonly PrefixKey[]): void {
    const output = interaction.response?.output;
    if (!output) return;
    const responseId = interaction.response?.id;
    if (responseId !== undefined) {
      this.responses.set(responseId, session);
      if (this.responses.size > this.capacity)
        this.responses.delete(this.responses.keys().next().value as string);
    }
    const key = answerKey(keys[keys.length - 1] ?? emptyPrefix, output);
    this.sessions.delete(key);
    this.sessions.set(key, session);
    // Oldest first out: a conversation idle for 100k round trips is unlikely to resume.
    if (this.sessions.size > this.capacity)
      this.sessions.delete(this.sessions.keys().next().value as PrefixKey);
  }
}
