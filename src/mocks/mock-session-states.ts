import type { JsonValue } from '../trace/trace.js';

/**
 * The declared state of one mock set (file), per session: each session starts from the file's
 * `state` and sees only its own changes, so two cases (or two samples, `<case>#k`) never see each
 * other's. Bounded like the proxy's other per-session memories: a long-running proxy sees an
 * endless stream of sessions, so past `capacity` sessions the least recently used is forgotten
 * (it starts again from the declared state if it comes back), and a session holds at most
 * `maxKeys` keys.
 */
export class MockSessionStates {
  private readonly sessions = new Map<string, Map<string, JsonValue>>();

  constructor(
    private readonly initial: ReadonlyMap<string, JsonValue>,
    private readonly capacity = 10_000,
    /** Keys one session may hold; a change that would pass it is refused. */
    readonly maxKeys = 1_000,
  ) {}

  /** The session's state, as a copy the caller may read while others change theirs. */
  read(session: string): ReadonlyMap<string, JsonValue> {
    return new Map(this.touch(session));
  }

  /**
   * Applies a call's changes to its session, all or none: undefined when applied, else why not
   * (the session would hold more than `maxKeys` keys).
   */
  apply(session: string, changes: ReadonlyMap<string, JsonValue>): string | undefined {
    const state = this.touch(session);
    const added = [...changes.keys()].filter((key) => !state.has(key)).length;
    if (state.size + added > this.maxKeys)
      return `the session's mock state would hold more than ${this.maxKeys} keys`;
    for (const [key, value] of changes) state.set(key, value);
    return undefined;
  }

  private touch(session: string): Map<string, JsonValue> {
    let state = this.sessions.get(session);
    if (state) this.sessions.delete(session);
    else state = new Map(this.initial);
    this.sessions.set(session, state);
    if (this.sessions.size > this.capacity)
      this.sessions.delete(this.sessions.keys().next().value as string);
    return state;
  }
}
