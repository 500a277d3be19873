import { chatCompletion, type ScriptedTurn } from './openai-chat-chunks.js';
import type { Script } from './scripted-upstream.js';

interface ChatBody {
  readonly messages: readonly { readonly role: string; readonly content?: string | null }[];
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
}

/**
 * A model that looks up before it acts, as real ones do: a refund prompt (`Refund order A-17, it
 * arrived broken`) gets get_order, then issue_refund with the order and a reason, then — when the
 * prompt asks for it — send_email; a weather prompt (`weather in Paris, in celsius`) gets
 * find_city, then get_weather. Anything else gets text. The step is read off the tool results the
 * agent sent back so far.
 */
export const lookupThenActModel: Script = (request) => {
  const body = JSON.parse(request.body || '{"messages":[]}') as ChatBody;
  const prompt = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const step = body.messages.filter((message) => message.role === 'tool').length;
  return { kind: 'json', body: chatCompletion(turn(prompt, step)) };
};

function turn(prompt: string, step: number): ScriptedTurn {
  const call = (name: string, args: object): ScriptedTurn => ({
    toolCalls: [{ id: `call_${step}`, name, arguments: JSON.stringify(args) }],
    usage: { prompt_tokens: 60, completion_tokens: 12 },
  });
  const order = /order ([A-Z]-\d+)/.exec(prompt)?.[1];
  if (order) {
    if (step === 0) return call('get_order', { order_id: order });
    if (step === 1)
      return call('issue_refund', {
        order_id: order,
        reason: prompt.split(', ')[1] ?? 'requested',
      });
    if (step === 2 && /email/i.test(prompt))
      return call('send_email', {
        to: 'ada@example.com',
        subject: `Your refund for ${order}`,
      });
    return { text: `Order ${order} is refunded.` };
  }
  const city = /weather in (\w+)/i.exec(prompt)?.[1];
  if (city) {
    if (step === 0) return call('find_city', { name: city });
    if (step === 1)
      return call('get_weather', {
        city,
        unit: /fahrenheit/i.test(prompt) ? 'fahrenheit' : 'celsius',
      });
    return { text: `It is 14 degrees in ${city}.` };
  }
  return { text: 'Hello! How can I help?' };
}
