import type { SuiteCase } from '../../scoring/suite-types.js';
import type { AgentRun } from './process-conversation-agent.js';
import {
  runConversation,
  scriptedTurns,
  type ConversationRun,
  type UserTurnSource,
} from './run-conversation.js';
import { startAgentConversation, type ConversingAgentSpec } from './start-agent-conversation.js';

/** How a case went with an agent that converses. */
export interface AgentConversationOutcome {
  /** The conversation, for a case with turns; a single-prompt case is scored as one. */
  readonly conversation: ConversationRun | undefined;
  /** How the agent process ended and what it printed; null for an agent at a url. */
  readonly agent: AgentRun | null;
  /** A single-prompt case: why the run says nothing about the model (the agent failed its turn), or null. */
  readonly error: string | null;
  /** Something wrong once every turn was answered (the process exited abnormally): the case fails. */
  readonly problems: readonly string[];
}

/**
 * Runs a case with the suite's conversing agent: its turns, in order, or its prompt as a
 * one-turn conversation, so one agent serves both kinds of case. A conversation's failed turn
 * is scored by the conversation (an error naming the turn); a single prompt's becomes the
 * case's error.
 */
export async function converseWithAgent(
  spec: ConversingAgentSpec,
  testCase: SuiteCase,
  session: string,
  urls: { readonly openai: string; readonly anthropic: string },
  extraEnv: { readonly [name: string]: string },
  /** Who speaks the user's side when the case is a conversation (its scripted turns, or a simulated user), and how many turns it may take. */
  user: { readonly source?: UserTurnSource; readonly maxTurns?: number } = {},
): Promise<AgentConversationOutcome> {
  const talk = startAgentConversation(spec, testCase, session, urls, extraEnv);
  const conversational = testCase.turns !== undefined || testCase.user !== undefined;
  const conversation = await runConversation(
    talk,
    conversational && user.source
      ? user.source
      : scriptedTurns(testCase.turns ?? [{ user: testCase.prompt ?? '' }]),
    user.maxTurns === undefined ? {} : { maxTurns: user.maxTurns },
  );
  const agent = talk.run();
  const failed = conversation.ended_by === 'error';
  return {
    conversation: conversational ? conversation : undefined,
    agent,
    error: failed && !conversational ? conversation.ended_reason : null,
    problems: failed ? [] : afterwards(agent),
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
