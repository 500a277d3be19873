import { describe, expect, it } from 'vitest';
import type { AgentReply, ConversationAgent } from './conversation-agent.js';
import { runConversation, scriptedTurns, type UserTurnSource } from './run-conversation.js';

/** A stand-in agent at the seam: answers each turn from a list and counts closes. */
function listAgent(replies: readonly AgentReply[]): ConversationAgent & {
  readonly said: string[];
  closed: number;
} {
  const said: string[] = [];
  return {
    said,
    closed: 0,
    say(turn) {
      said.push(`${turn.index}:${turn.text}`);
      return Promise.resolve(replies[turn.index - 1] ?? { text: 'ok' });
    },
    close() {
      this.closed += 1;
      return Promise.resolve();
    },
  };
}

/** A clock that moves one millisecond per reading. */
function ticking(): () => number {
  let now = 1000;
  return () => (now += 1);
}

describe('runConversation', () => {
  it('says every scripted turn in order, keeps the replies, ends by script and closes the agent once', async () => {
    const agent = listAgent([{ text: 'which order?' }, { text: null }, { text: 'refunded' }]);
    const run = await runConversation(
      agent,
      scriptedTurns([{ user: 'refund me' }, { user: 'A-17' }, { user: 'yes' }]),
      { now: ticking() },
    );
    expect(agent.said).toEqual(['1:refund me', '2:A-17', '3:yes']);
    expect(
      run.exchanges.map((exchange) => [exchange.index, exchange.user, exchange.reply.text]),
    ).toEqual([
      [1, 'refund me', 'which order?'],
      [2, 'A-17', null],
      [3, 'yes', 'refunded'],
    ]);
    expect(run).toMatchObject({ ended_by: 'script', ended_reason: null });
    expect(agent.closed).toBe(1);
    const starts = run.exchanges.map((exchange) => exchange.startedAt);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(starts).size).toBe(3);
  });

  it('stops when the agent ends the conversation or fails a turn, naming the turn', async () => {
    const ended = await runConversation(
      listAgent([{ text: 'bye', ended: true }]),
      scriptedTurns([{ user: 'a' }, { user: 'b' }]),
    );
    expect(ended).toMatchObject({
      ended_by: 'agent_ended',
      ended_reason: 'the agent ended turn 1',
    });
    expect(ended.exchanges).toHaveLength(1);
    const failing = listAgent([{ text: 'x' }, { text: null, error: 'the agent crashed' }]);
    const failed = await runConversation(
      failing,
      scriptedTurns([{ user: 'a' }, { user: 'b' }, { user: 'c' }]),
    );
    expect(failed).toMatchObject({ ended_by: 'error', ended_reason: 'turn 2: the agent crashed' });
    expect(failing.closed).toBe(1);
  });

  it('turns a say that throws into an error of that turn', async () => {
    const agent: ConversationAgent = {
      say: () => Promise.reject(new Error('connection reset')),
      close: () => Promise.resolve(),
    };
    const run = await runConversation(agent, scriptedTurns([{ user: 'a' }]));
    expect(run).toMatchObject({ ended_by: 'error', ended_reason: 'turn 1: connection reset' });
    expect(run.exchanges[0]?.reply).toEqual({ text: null, error: 'connection reset' });
  });

  it('asks another source for each turn with the history so far, and stops at maxTurns', async () => {
    const seen: number[] = [];
    const echo: UserTurnSource = {
      nextUserTurn: (history) => {
        seen.push(history.length);
        const last = history.at(-1)?.reply.text;
        return Promise.resolve(
          last === 'done'
            ? { end: 'goal', reason: 'goal reached' }
            : { text: `say ${history.length}` },
        );
      },
    };
    const capped = await runConversation(listAgent([]), echo, { maxTurns: 2 });
    expect(capped).toMatchObject({ ended_by: 'max_turns', ended_reason: '2 turn(s) said' });
    expect(seen).toEqual([0, 1]);
    const reached = await runConversation(listAgent([{ text: 'hm' }, { text: 'done' }]), echo);
    expect(reached).toMatchObject({ ended_by: 'goal', ended_reason: 'goal reached' });
    expect(reached.exchanges.map((exchange) => exchange.user)).toEqual(['say 0', 'say 1']);
  });
});
