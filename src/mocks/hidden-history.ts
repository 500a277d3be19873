import type { PrefixKey } from '../trace/prefix-hash.js';
import type { JsonValue } from '../trace/trace.js';

/**
 * What the agent did not see, keyed by the agent's conversation up to an assistant message it
 * did see: the messages that stand in that message's place when the agent sends it back (the
 * hidden rounds before it, and the full turn with the mocked calls' results). Bounded: the
 * oldest conversations are forgotten first.
 */
export class HiddenHistory {
  private readonly entries = new Map<PrefixKey, readonly JsonValue[]>();

  constructor(private readonly capacity = 50_000) {}

  set(key: PrefixKey, messages: readonly JsonValue[]): void {
    this.entries.delete(key);
    this.entries.set(key, messages);
    if (this.entries.size > this.capacity)
      this.entries.delete(this.entries.keys().next().value as PrefixKey);
  }

  get(key: PrefixKey): readonly JsonValue[] | undefined {
    return this.entries.get(key);
  }
}

/** How many calls to a tool a session has had mocked, for sequences. Bounded like the history. */
export class MockCounters {
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity = 100_000) {}

  /** The 0-based occurrence of this call, counting it. */
  next(session: string, set: string, tool: string): number {
    const key = `${session}\u0000${set}\u0000${tool}`;
    const count = this.counts.get(key) ?? 0;
    this.counts.delete(key);
    this.counts.set(key, count + 1);
    if (this.counts.size > this.capacity)
      this.counts.delete(this.counts.keys().next().value as string);
    return count;
  }
}

/**
 * Mock answers by call id (override mode): the agent sends every tool result again on each
 * later request, and each must get the answer it got the first time — a sequence advances
 * once per call, not once per request. Bounded like the history.
 */
export class AnsweredCalls<T> {
  private readonly answers = new Map<string, T>();

  constructor(private readonly capacity = 100_000) {}

  async get(callId: string, answer: () => Promise<T>): Promise<T> {
    const known = this.answers.get(callId);
    if (known !== undefined) return known;
    const fresh = await answer();
    this.answers.set(callId, fresh);
    if (this.answers.size > this.capacity)
      this.answers.delete(this.answers.keys().next().value as string);
    return fresh;
  }
}
