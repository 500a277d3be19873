import { request } from 'undici';
import { printableText, printableUrl } from '../../cassette/printable-url.js';
import { sessionHeader } from '../../proxy/headers.js';
import type { AgentReply, ConversationAgent } from './conversation-agent.js';
import { maxAgentMessage, turnRequest, type ConversationStart } from './conversation-protocol.js';
import { agentReply } from './read-agent-line.js';
import { readHttpAnswer } from './read-http-answer.js';

export interface HttpConversationOptions {
  /** Where the agent listens (checked by the suite loader: http(s), on this machine unless allowed). */
  readonly url: string;
  readonly start: ConversationStart;
  /** The most one turn may take to be answered. */
  readonly turnTimeoutMs: number;
  /** The most the whole conversation may take, from the first turn. */
  readonly timeoutMs: number;
}

/**
 * The HTTP protocol (docs/reference/conversation-protocol.md): each user turn is one POST of a
 * JSON turn request to the agent's url, with the session also in `x-calltape-session`; the
 * answer is the response's JSON. A turn is an error saying why — never a hang — when the agent
 * cannot be reached, answers with an error status, a body that is not an answer or over 1 MiB,
 * or passes the turn's or the conversation's timeout. Redirects are not followed. The url is
 * printed with any credentials in it masked.
 */
export function httpConversationAgent(options: HttpConversationOptions): ConversationAgent {
  const where = printableUrl(options.url);
  let deadline: number | undefined;
  let ended = false;
  let closed = false;
  return {
    async say(turn) {
      if (closed) return { text: null, error: 'the conversation was closed' };
      if (ended) return { text: null, ended: true };
      deadline ??= Date.now() + options.timeoutMs;
      const left = deadline - Date.now();
      if (left <= 0)
        return {
          text: null,
          error: `the conversation did not finish within ${options.timeoutMs} ms`,
        };
      const timeoutMs = Math.min(options.turnTimeoutMs, left);
      const reply = await postTurn(options, turn, timeoutMs, where);
      if (reply.ended) ended = true;
      return reply;
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}

async function postTurn(
  options: HttpConversationOptions,
  turn: { readonly index: number; readonly text: string },
  timeoutMs: number,
  where: string,
): Promise<AgentReply> {
  const failed = (message: string): AgentReply => ({ text: null, error: message });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        [sessionHeader]: options.start.session,
      },
      body: JSON.stringify(turnRequest(options.start, turn.index, turn.text)),
      signal,
    });
    const body = await boundedText(response.body, maxAgentMessage);
    if (body === undefined)
      return failed(`the agent at ${where} answered with a body over ${maxAgentMessage} bytes`);
    const answer = readHttpAnswer(response.statusCode, body);
    if (typeof answer === 'string')
      return failed(`the agent at ${where} did not answer as the protocol says: ${answer}`);
    return agentReply(answer);
  } catch (error) {
    if (signal.aborted)
      return failed(`the agent at ${where} did not answer within ${timeoutMs} ms`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED')
      return failed(
        `cannot reach the agent at ${where}: connection refused. Start the agent first (it must listen there), then run calltape test again`,
      );
    return failed(
      `the request to the agent at ${where} failed: ${printableText((error as Error).message)}${code ? ` (${code})` : ''}`,
    );
  }
}

/** The body as text, or undefined (and the rest discarded) once it passes `limit` bytes. */
async function boundedText(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}
