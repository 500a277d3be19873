import { chatCompletion, type ScriptedTurn } from './openai-chat-chunks.js';
import type { Script } from './scripted-upstream.js';

interface ChatBody {
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
}

/**
 * A model that runs a refund conversation the careful way, turn by turn: asked for a refund it
 * asks which order; given an order (`A-17`) it calls get_order, then asks to confirm; told "yes"
 * it calls issue_refund with that order, then says it is done; anything else gets a goodbye.
 * The step is read off the last user message and the tool results after it, so it answers the
 * same whether calltape's mocks or the agent's own tools answered the calls.
 */
export const refundConversationModel: Script = (request) => {
  const { messages } = JSON.parse(request.body || '{"messages":[]}') as ChatBody;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const said = text(messages[lastUser]?.content);
  const answered = messages.slice(lastUser + 1).some((message) => message.role === 'tool');
  const order = /[A-Z]-\d+/.exec(
    messages
      .filter((message) => message.role === 'user')
      .map((message) => text(message.content))
      .join(' '),
  )?.[0];
  return { kind: 'json', body: chatCompletion(turn(said, order, answered, messages.length)) };
};

function turn(
  said: string,
  order: string | undefined,
  answered: boolean,
  step: number,
): ScriptedTurn {
  const usage = { prompt_tokens: 80, completion_tokens: 12 };
  const call = (name: string, args: object): ScriptedTurn => ({
    toolCalls: [{ id: `call_${step}`, name, arguments: JSON.stringify(args) }],
    usage,
  });
  if (/^yes/i.test(said) && order)
    return answered
      ? { text: `Done: order ${order} is refunded (refund R-1).`, usage }
      : call('issue_refund', { order_id: order, reason: 'customer request' });
  if (/[A-Z]-\d+/.test(said) && order)
    return answered
      ? { text: `Order ${order} is a kettle for 42 EUR. Shall I refund it?`, usage }
      : call('get_order', { order_id: order });
  if (/refund/i.test(said)) return { text: 'Which order would you like refunded?', usage };
  return { text: 'You are welcome. Goodbye!', usage };
}

function text(content: unknown): string {
  return typeof content === 'string' ? content : '';
}
