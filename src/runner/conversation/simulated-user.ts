import { askThroughProxy, type ModelEndpoint } from '../../ask-through-proxy.js';
import type { SimulatedUserSpec } from '../../scoring/suite-types.js';
import type { JudgeVerdict } from '../../scoring/trajectory/types.js';
import { simulatedUserSessionPrefix } from '../../trace/build-trajectories.js';
import type { JsonValue } from '../../trace/trace.js';
import type { Exchange, NextUserTurn, UserTurnSource } from './run-conversation.js';

/** What the user model writes when its goal is reached (τ-bench's convention). */
export const stopToken = '###STOP###';

/** The session a case's simulated user asks its model under: the user's side of `session`. */
export function simulatedUserSession(session: string): string {
  return `${simulatedUserSessionPrefix}:${session}`.slice(0, 200);
}

/**
 * A model playing the user (τ-bench style), after the case's scripted turns: before each next
 * turn, `stop_when` (when given) judges the conversation so far and a pass ends it (`goal`);
 * else the user model, which sees the conversation from the user's side (the agent's replies
 * as the other party's messages), writes the next message, or the stop token when its goal is
 * reached. Its requests are a pure function of the spec and the replies so far (no ids, no
 * clock), so a replayed run finds them in the cassette.
 */
export function simulatedUser(
  spec: SimulatedUserSpec,
  scripted: readonly { readonly user: string }[],
  options: {
    readonly session: string;
    readonly model: string;
    readonly endpoint: ModelEndpoint;
    /** Runs `stop_when` on the conversation so far. */
    readonly judgeGoal?: (history: readonly Exchange[]) => Promise<JudgeVerdict>;
  },
): UserTurnSource {
  return {
    async nextUserTurn(history): Promise<NextUserTurn> {
      const next = scripted[history.length];
      if (next !== undefined) return { text: next.user };
      if (history.length > 0 && options.judgeGoal) {
        const verdict = await options.judgeGoal(history);
        if (verdict.pass)
          return { end: 'goal', reason: `stop_when: ${verdict.reason ?? 'the goal is reached'}` };
      }
      const text = await askThroughProxy(
        'openai',
        userModelRequest(spec, spec.model ?? options.model, history),
        simulatedUserSession(options.session),
        options.endpoint,
      );
      if (text.includes(stopToken))
        return { end: 'goal', reason: 'the simulated user said its goal was reached' };
      const message = text.trim();
      if (message.length === 0)
        return { end: 'goal', reason: 'the simulated user had nothing more to say' };
      return { text: message };
    },
  };
}

/** The user model's Chat Completions request: its role, then the conversation with the sides swapped. */
export function userModelRequest(
  spec: SimulatedUserSpec,
  model: string,
  history: readonly Exchange[],
): JsonValue {
  const instructions = [
    'You play the user of an AI assistant, talking to it in a chat. Stay in character; write only your next message to the assistant, as the user would type it.',
    ...(spec.persona ? [`Who you are: ${spec.persona}`] : []),
    `What you want: ${spec.goal}`,
    `Give the assistant what it asks for when your goal needs it. When your goal is reached, or cannot be, reply with ${stopToken} and nothing else.`,
  ].join('\n');
  const messages: JsonValue[] = [{ role: 'system', content: instructions }];
  // The user model is the "assistant" of its own chat: its earlier messages are its turns, the agent's replies the other side's.
  if (history.length === 0)
    messages.push({ role: 'user', content: '(The chat opens. Write your first message.)' });
  for (const exchange of history) {
    messages.push({ role: 'assistant', content: exchange.user });
    messages.push({
      role: 'user',
      content: exchange.reply.text ?? '(The assistant did something without saying anything.)',
    });
  }
  return { model, messages, temperature: 0 };
}
