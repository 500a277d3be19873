import { parseJson } from '../../src/providers/json-access.js';
import type { JsonSchema, ToolCall } from '../../src/trace/trace.js';

/** A model's call of `name` with the raw arguments `args` (parsed as the adapters parse them). */
export function toolCall(name: string, args: string, complete = true): ToolCall {
  return {
    id: 'call_1',
    index: 0,
    name,
    argumentsRaw: args,
    arguments: parseJson(args),
    complete,
  };
}

/** The parameters of `transfer_money(amount, currency?, email?)`: nothing else is allowed. */
export const transferMoneySchema: JsonSchema = {
  type: 'object',
  properties: {
    amount: { type: 'number' },
    currency: { type: 'string' },
    email: { type: 'string' },
  },
  required: ['amount'],
  additionalProperties: false,
};
