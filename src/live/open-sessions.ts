import type { Interaction } from '../trace/trace.js';
import type { CallVerdict } from './verdict-types.js';

/** Round trips kept per open session; a longer run keeps its latest ones. */
const maxInteractionsPerSession = 1_000;

/** A session still taking round trips: what its verdict is made of when it ends. */
export interface OpenSession {
  readonly id: string;
  /** Tool results already kept (by call id): agents resend them with every later request. */
  readonly results: Set<string>;
  readonly interactions: Interaction[];
  /** Call verdicts by `<interaction id>:<call index>`. */
  readonly verdicts: Map<string, CallVerdict>;
  caseId: string | undefined;
  model: string;
  startedAt: number;
  lastAt: number;
}

/**
 * The sessions not yet ended, in order of last activity (longest idle first): a `Map` whose
 * entries are re-inserted on every round trip, so idle sessions and the one to push out are
 * found at its front without a scan.
 */
export class OpenSessions {
  private readonly open = new Map<string, OpenSession>();

  /**
   * Adds a round trip to its session (opened on the first), and makes that session the most
   * recently active. `caseId` is the case the session is tagged with: the round's tag, else the
   * tag it had, else the session id when `cases` (the suites' test ids) has it.
   */
  touch(
    sessionId: string,
    interaction: Interaction,
    caseTag: string | undefined,
    now: number,
    cases: { has(id: string): boolean },
  ): OpenSession {
    let session = this.open.get(sessionId);
    if (session) this.open.delete(sessionId);
    else
      session = {
        id: sessionId,
        results: new Set(),
        interactions: [],
        verdicts: new Map(),
        caseId: undefined,
        model: 'unknown',
        startedAt: interaction.timing.startedAt,
        lastAt: now,
      };
    // Re-inserted: the map stays in order of last activity, longest idle first.
    this.open.set(sessionId, session);
    session.interactions.push(slim(interaction, session));
    if (session.interactions.length > maxInteractionsPerSession) session.interactions.shift();
    session.lastAt = now;
    session.caseId = caseTag ?? session.caseId ?? (cases.has(sessionId) ? sessionId : undefined);
    session.model = interaction.request.model ?? session.model;
    return session;
  }

  /** The longest-idle sessions beyond `max` open, taken out (the caller ends them early). */
  takeOver(max: number): OpenSession[] {
    const evicted: OpenSession[] = [];
    while (this.open.size > max) {
      const oldest = this.open.values().next().value as OpenSession;
      this.open.delete(oldest.id);
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Sessions with no round trip for `idleMs` by `now`, taken out. */
  takeIdle(now: number, idleMs: number): OpenSession[] {
    const idle: OpenSession[] = [];
    for (const session of this.open.values()) {
      // The map is in order of last activity: the first active one ends the search.
      if (now - session.lastAt < idleMs) break;
      idle.push(session);
    }
    for (const session of idle) this.open.delete(session.id);
    return idle;
  }

  /** Every open session, taken out (shutdown, end of a cassette). */
  takeAll(): OpenSession[] {
    const all = [...this.open.values()];
    this.open.clear();
    return all;
  }
}

/**
 * What an open session keeps of a round trip: everything but the resent history. Agents send the
 * whole conversation with every request, so keeping it would grow a session's memory with the
 * square of its length; a trajectory needs only each tool result once (and the offered tools,
 * which the first round trip keeps). Conversation chaining has already read the messages.
 */
function slim(interaction: Interaction, session: OpenSession): Interaction {
  const messages = interaction.request.messages.filter((message) => {
    if (
      message.role !== 'tool' ||
      message.toolCallId === undefined ||
      session.results.has(message.toolCallId)
    )
      return false;
    session.results.add(message.toolCallId);
    return true;
  });
  const tools = session.interactions.length === 0 ? interaction.request.tools : [];
  return { ...interaction, request: { ...interaction.request, messages, tools } };
}
