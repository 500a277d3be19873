/**
 * A conversation as it happened (what the runner's conversation loop hands the scorer): the user
 * turns said, the agent's answers, when each turn was said, and why it ended.
 */
import type { ConversationResult } from './case-result.js';

/** One exchange so far: what the user said in a turn and what the agent answered. */
export interface Exchange {
  /** Counting from 1. */
  readonly index: number;
  readonly user: string;
  readonly reply: {
    /** What the agent said back; null when it said nothing. */
    readonly text: string | null;
    readonly ended?: boolean;
    /** The agent failed this turn. */
    readonly error?: string;
  };
  /** When the turn was said (ms since the epoch): the rounds the session started from then until the next turn was said belong to it. */
  readonly startedAt: number;
}

/** The conversation as it happened: its exchanges and why it ended. */
export interface ConversationRun {
  readonly exchanges: readonly Exchange[];
  readonly ended_by: ConversationResult['ended_by'];
  readonly ended_reason: string | null;
}

/**
 * Which turn (index into `starts`, from 0) each round belongs to, by start time: the last turn
 * said at or before the round started; rounds that started before the first turn go to it.
 */
export function roundsOfTurns(starts: readonly number[], roundStarts: readonly number[]): number[] {
  return roundStarts.map((at) => {
    let turn = 0;
    starts.forEach((start, index) => {
      if (start <= at) turn = index;
    });
    return turn;
  });
}
