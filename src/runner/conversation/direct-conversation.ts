import type { RunConfig } from '../../scoring/suite-types.js';
import type { JsonValue } from '../../trace/trace.js';
import { sendChat, type DirectOptions } from '../drive-direct.js';
import type { AgentReply, ConversationAgent } from './conversation-agent.js';

/** What a tool call that reached calltape unanswered gets, so the next turn's history is well-formed. */
export const notExecutedResult =
  'calltape: this tool was not run (direct mode runs no tools; mock it to give it an answer)';

/**
 * Direct mode's side of a conversation: calltape itself is the agent. It keeps the Chat
 * Completions history across turns (the run's system prompt, each user turn, each assistant
 * message with its tool calls) and sends one request per turn through the proxy, where mocks
 * answer their calls inside the proxy as for a single prompt. A tool call that comes back to it
 * (not mocked) is not run: it gets a tool message saying so, and the turn ends there, as a
 * single-prompt case ends after one answer. The assistant's text is the reply.
 */
export class DirectConversation implements ConversationAgent {
  private readonly history: JsonValue[];

  constructor(
    private readonly proxyUrl: string,
    private readonly run: RunConfig,
    private readonly session: string,
    private readonly options: DirectOptions,
  ) {
    this.history = run.system ? [{ role: 'system', content: run.system }] : [];
  }

  async say(turn: { readonly index: number; readonly text: string }): Promise<AgentReply> {
    this.history.push({ role: 'user', content: turn.text });
    const answer = await sendChat(
      this.proxyUrl,
      this.run,
      this.history,
      this.session,
      this.options,
    );
    if (answer.error !== null) return { text: null, error: answer.error };
    const message = assistantMessage(answer.body);
    if (message === undefined)
      return { text: null, error: 'the model answered without a message (choices[0].message)' };
    this.history.push(message);
    const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    for (const call of calls) {
      const id =
        typeof call === 'object' && call !== null && !Array.isArray(call) ? call['id'] : undefined;
      this.history.push({
        role: 'tool',
        tool_call_id: typeof id === 'string' ? id : '',
        content: notExecutedResult,
      });
    }
    const content = message['content'];
    return { text: typeof content === 'string' && content !== '' ? content : null };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The answer's assistant message, as it goes back into the history (role, content, tool_calls). */
function assistantMessage(body: unknown): { [key: string]: JsonValue } | undefined {
  const choices = (body as { choices?: unknown } | null)?.choices;
  const message: unknown = Array.isArray(choices)
    ? (choices[0] as { message?: unknown } | undefined)?.message
    : undefined;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const fields = message as { [key: string]: JsonValue };
  return {
    role: 'assistant',
    content: typeof fields['content'] === 'string' ? fields['content'] : null,
    ...(Array.isArray(fields['tool_calls']) ? { tool_calls: fields['tool_calls'] } : {}),
  };
}
