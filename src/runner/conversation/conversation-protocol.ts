/**
 * The conversation protocols calltape speaks with an agent in agent mode, process (JSON lines on
 * stdin/stdout) and HTTP (one POST per user turn): their version and the messages calltape
 * sends. docs/reference/conversation-protocol.md is the contract; this file is its code.
 */

/**
 * The protocol version this calltape speaks, sent in every start line and every turn request.
 * Adding an optional field keeps the version; anything an agent written for the old version
 * would misread (a field it must act on, a changed meaning) takes a new one.
 */
export const conversationProtocolVersion = 1;

/**
 * The most bytes calltape holds of one message from an agent: a line on a process agent's
 * stdout or an HTTP agent's reply body. Past it the turn is an error, so an agent that prints
 * without end cannot make calltape hold it all.
 */
export const maxAgentMessage = 1024 * 1024;

/** Where the agent must send its model requests, by wire (`openai`, `anthropic`, …), so its rounds land in the case's session. */
export interface BaseUrls {
  readonly [wire: string]: string;
}

/** What calltape tells an agent about the conversation about to start. */
export interface ConversationStart {
  /** The case's test_id. */
  readonly case: string;
  /** The session the case's rounds are recorded under (`<case>`, `<run>/<case>`, `…#k` for sample k). */
  readonly session: string;
  readonly base_urls: BaseUrls;
}

/** Process protocol: the first line calltape writes to the agent's stdin. */
export interface StartLine extends ConversationStart {
  readonly type: 'start';
  readonly protocol: typeof conversationProtocolVersion;
}

/** Process protocol: one user turn, written to the agent's stdin; the agent answers it with one reply or end line. */
export interface UserLine {
  readonly type: 'user';
  /** The turn's number, from 1; the reply must carry the same. */
  readonly turn: number;
  readonly text: string;
}

/** HTTP protocol: the JSON body calltape POSTs for each user turn. */
export interface TurnRequest extends ConversationStart {
  readonly protocol: typeof conversationProtocolVersion;
  /** From 1. Turn 1 starts a new conversation: the agent drops what it kept for this session. */
  readonly turn: number;
  readonly text: string;
}

/** A line calltape writes to a process agent: the JSON on one line, ended by a newline. */
export function encodeLine(line: StartLine | UserLine): string {
  // JSON.stringify escapes every newline inside strings, so a message is always one line.
  return `${JSON.stringify(line)}\n`;
}

/** The start line for a conversation. */
export function startLine(start: ConversationStart): StartLine {
  return { type: 'start', protocol: conversationProtocolVersion, ...start };
}

/** The body of an HTTP turn request. */
export function turnRequest(start: ConversationStart, turn: number, text: string): TurnRequest {
  return { protocol: conversationProtocolVersion, ...start, turn, text };
}
