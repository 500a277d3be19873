/** One side of a conversation calltape holds with an agent: it is told each user turn and answers it. */
export interface ConversationAgent {
  /** Sends user turn `index` (from 1); resolves when the agent has answered it (its model round trips done). */
  say(turn: { readonly index: number; readonly text: string }): Promise<AgentReply>;
  /** Ends the conversation (closes the process / connection); idempotent. */
  close(): Promise<void>;
}

/** The agent's answer to one user turn. */
export interface AgentReply {
  /** What the agent said back to the user; null when it said nothing. */
  readonly text: string | null;
  /** The agent ended the conversation (gave up / said goodbye). */
  readonly ended?: boolean;
  /** The agent failed this turn (crash, protocol error, timeout): the turn and case are errors. */
  readonly error?: string;
}
