import type { ConversationRun, Exchange } from '../../scoring/conversation-run.js';
import type { AgentReply, ConversationAgent } from './conversation-agent.js';

export type { ConversationRun, Exchange } from '../../scoring/conversation-run.js';

/** What the next user turn is: a message, or the end of the conversation and why. */
export type NextUserTurn =
  { readonly text: string } | { readonly end: 'script' | 'goal'; readonly reason: string | null };

/**
 * Where user turns come from: the case's scripted list, or a simulated user that reads the
 * agent's replies so far. Called before each turn with every exchange so far.
 */
export interface UserTurnSource {
  nextUserTurn(history: readonly Exchange[]): Promise<NextUserTurn>;
}

/** A case's `turns:` as a source: each in order, then the end of the script. */
export function scriptedTurns(turns: readonly { readonly user: string }[]): UserTurnSource {
  return {
    nextUserTurn: (history) => {
      const next = turns[history.length];
      return Promise.resolve(
        next === undefined ? { end: 'script', reason: null } : { text: next.user },
      );
    },
  };
}

/**
 * Holds a conversation: asks the source for each user turn, says it to the agent and waits for
 * the answer, until the source ends it, the agent ends it or fails a turn, or `maxTurns` turns
 * were said. Turns are sequential and an agent answers a turn only when its round trips are
 * done, so each exchange's `startedAt` splits the session's rounds between turns by when the
 * proxy received them (`roundsOfTurns` in scoring/conversation-run.ts), whatever order or delay they are captured with.
 * The agent is closed in every case.
 */
export async function runConversation(
  agent: ConversationAgent,
  source: UserTurnSource,
  options: { readonly maxTurns?: number; readonly now?: () => number } = {},
): Promise<ConversationRun> {
  const now = options.now ?? Date.now;
  const exchanges: Exchange[] = [];
  let answeredAt = Number.NEGATIVE_INFINITY;
  try {
    for (;;) {
      if (options.maxTurns !== undefined && exchanges.length >= options.maxTurns)
        return {
          exchanges,
          ended_by: 'max_turns',
          ended_reason: `${options.maxTurns} turn(s) said`,
        };
      const next = await source.nextUserTurn(exchanges);
      if ('end' in next) return { exchanges, ended_by: next.end, ended_reason: next.reason };
      const index = exchanges.length + 1;
      // Round start times are whole milliseconds: the next turn starts on a later one than the last answer, so no round is on the boundary.
      while (now() <= answeredAt) await new Promise((resolve) => setImmediate(resolve));
      const startedAt = now();
      let reply: AgentReply;
      try {
        reply = await agent.say({ index, text: next.text });
      } catch (failure) {
        reply = { text: null, error: (failure as Error).message };
      }
      answeredAt = now();
      exchanges.push({ index, user: next.text, reply, startedAt });
      if (reply.error !== undefined)
        return { exchanges, ended_by: 'error', ended_reason: `turn ${index}: ${reply.error}` };
      if (reply.ended === true)
        return {
          exchanges,
          ended_by: 'agent_ended',
          ended_reason: `the agent ended turn ${index}`,
        };
    }
  } finally {
    await agent.close();
  }
}
