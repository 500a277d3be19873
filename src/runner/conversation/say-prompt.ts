import type { AgentConversation } from './start-agent-conversation.js';
import type { AgentRun } from './process-conversation-agent.js';

/** How a single-prompt case went with a conversing agent. */
export interface PromptConversation {
  /** Why the case says nothing about the model (the agent failed the turn), or null. */
  readonly error: string | null;
  /** Something wrong after the agent answered (it exited abnormally): the case fails. */
  readonly problems: readonly string[];
  readonly agent: AgentRun | null;
}

/**
 * A case with a single prompt, run with an agent that converses: a one-turn conversation whose
 * user turn is the prompt, so one agent serves both kinds of case.
 */
export async function sayPrompt(
  conversation: AgentConversation,
  prompt: string,
): Promise<PromptConversation> {
  let reply;
  try {
    reply = await conversation.say({ index: 1, text: prompt });
  } finally {
    await conversation.close();
  }
  const agent = conversation.run();
  return {
    error: reply.error ?? null,
    problems: reply.error === undefined ? afterwards(agent) : [],
    agent,
  };
}

/** A process that answered every turn and then crashed, or had to be killed to exit, is still a bug to show. */
export function afterwards(agent: AgentRun | null): string[] {
  if (agent === null || agent.exit_code === 0) return [];
  return agent.exit_code === null
    ? [
        `the agent did not exit when its stdin closed after the conversation (ended by ${agent.signal ?? 'a signal'})`,
      ]
    : [`the agent exited with code ${agent.exit_code} after the conversation`];
}
