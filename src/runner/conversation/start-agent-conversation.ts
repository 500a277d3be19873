import type {
  AgentSpec,
  HttpAgentSpec,
  ProcessAgentSpec,
  SuiteCase,
} from '../../scoring/suite-types.js';
import { agentEnvironment } from '../drive-agent.js';
import type { ConversationAgent } from './conversation-agent.js';
import type { BaseUrls } from './conversation-protocol.js';
import { httpConversationAgent } from './http-conversation-agent.js';
import { startProcessConversation, type AgentRun } from './process-conversation-agent.js';

/** A suite's agent that converses: a command speaking JSON lines, or a url. */
export type ConversingAgentSpec =
  (ProcessAgentSpec & { readonly protocol: 'jsonl' }) | HttpAgentSpec;

/** A conversation with the suite's agent, and what the report keeps of its process (none for a url). */
export interface AgentConversation extends ConversationAgent {
  /** How the agent process ended and what it printed; null for an agent at a url. Complete after `close()`. */
  run(): AgentRun | null;
}

/** True when the suite's agent can hold a conversation (protocol jsonl, or a url; an agent module takes one prompt per call). */
export function conversing(spec: AgentSpec): spec is ConversingAgentSpec {
  return spec.kind === 'http' || (spec.kind === 'process' && spec.protocol === 'jsonl');
}

/**
 * Starts a conversation for one case (one sample) with the suite's conversing agent, its model
 * requests pointed at the case's session: the base URLs go in the start line and, for a
 * command, in its environment as for a single-prompt agent.
 */
export function startAgentConversation(
  spec: ConversingAgentSpec,
  testCase: SuiteCase,
  session: string,
  urls: { readonly openai: string; readonly anthropic: string },
  extraEnv: { readonly [name: string]: string },
): AgentConversation {
  const baseUrls: BaseUrls = { openai: urls.openai, anthropic: urls.anthropic };
  const start = { case: testCase.test_id, session, base_urls: baseUrls };
  const timeouts = { turnTimeoutMs: spec.turnTimeoutMs, timeoutMs: spec.timeoutMs };
  if (spec.kind === 'http') {
    const agent = httpConversationAgent({ url: spec.url, start, ...timeouts });
    return { say: (turn) => agent.say(turn), close: () => agent.close(), run: () => null };
  }
  return startProcessConversation({
    command: spec.command,
    cwd: spec.cwd,
    env: agentEnvironment(spec, testCase, urls, extraEnv),
    start,
    ...timeouts,
  });
}
