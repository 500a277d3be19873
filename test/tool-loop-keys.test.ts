import { describe, expect, it } from 'vitest';
import { anthropicMessagesAdapter } from '../src/providers/anthropic-messages/anthropic-messages-adapter.js';
import { openAiChatAdapter } from '../src/providers/openai-chat/openai-chat-adapter.js';
import { openAiResponsesAdapter } from '../src/providers/openai-responses/openai-responses-adapter.js';
import type { ProviderAdapter } from '../src/providers/provider-adapter.js';
import { prefixKeys, type PrefixKey } from '../src/trace/prefix-hash.js';
import type { JsonValue } from '../src/trace/trace.js';

/**
 * The same conversation on each wire: (system prompt,) a user question, a turn with two calls,
 * their results, a text answer, the next question. `system` is undefined for none.
 */
const conversations: Record<string, (system: string | undefined) => JsonValue> = {
  'openai-chat': (system) => ({
    messages: [
      ...(system !== undefined ? [{ role: 'system', content: system }] : []),
      { role: 'user', content: 'Balance and weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_balance', arguments: '{}' } },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '120' },
      { role: 'tool', tool_call_id: 'c2', content: 'sunny' },
      { role: 'assistant', content: '120 and sunny' },
      { role: 'user', content: 'Thanks' },
    ],
  }),
  'anthropic-messages': (system) => ({
    ...(system !== undefined ? { system } : {}),
    messages: [
      { role: 'user', content: 'Balance and weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'c1', name: 'get_balance', input: {} },
          { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '120' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'sunny' },
        ],
      },
      { role: 'assistant', content: '120 and sunny' },
      { role: 'user', content: 'Thanks' },
    ],
  }),
  'openai-responses': (system) => ({
    ...(system !== undefined ? { instructions: system } : {}),
    input: [
      { role: 'user', content: 'Balance and weather?' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
      },
      { type: 'function_call', call_id: 'c1', name: 'get_balance', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'c1', output: '120' },
      { type: 'function_call_output', call_id: 'c2', output: 'sunny' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: '120 and sunny', annotations: [] }],
      },
      { role: 'user', content: 'Thanks' },
    ],
  }),
};

const wires: readonly ProviderAdapter[] = [
  openAiChatAdapter,
  anthropicMessagesAdapter,
  openAiResponsesAdapter,
];

describe.each(wires.map((adapter) => [adapter.id, adapter] as const))(
  'tool-loop splice keys (%s)',
  (_id, adapter) => {
    // Regression (issue 16): the loop keeps hidden history under keys of the parsed conversation,
    // system prompt included; the Messages and Responses splices hashed their message list alone,
    // so with a system prompt the agent's next request went upstream without the mocked round.
    it.each([undefined, 'You are a terse bank assistant.'])(
      'asks for hidden history under the parsed conversation keys (system prompt: %s)',
      (system) => {
        const body = conversations[adapter.id]?.(system) as JsonValue;
        const parsed = adapter.parseRequest(body).messages;
        const keys = prefixKeys(parsed);
        const assistantKeys = keys.filter((_key, index) => parsed[index]?.role === 'assistant');
        const asked: PrefixKey[] = [];
        adapter.toolLoop?.splice(body, (key) => void asked.push(key));
        expect(assistantKeys).toHaveLength(2);
        expect(asked).toEqual(assistantKeys);
      },
    );
  },
);
