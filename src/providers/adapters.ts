import { anthropicMessagesAdapter } from './anthropic-messages/anthropic-messages-adapter.js';
import { openAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
import { openAiResponsesAdapter } from './openai-responses/openai-responses-adapter.js';
import type { ProviderAdapter } from './provider-adapter.js';

/** Every wire format the proxy captures, in match order. Routes none of them matches pass through untouched. */
export const adapters: readonly ProviderAdapter[] = [
  openAiChatAdapter,
  openAiResponsesAdapter,
  anthropicMessagesAdapter,
];

export function findAdapter(method: string, path: string): ProviderAdapter | undefined {
  return adapters.find((adapter) => adapter.matches(method, path));
}

/** The adapter that produced a stored interaction. */
export function adapterById(id: string): ProviderAdapter | undefined {
  return adapters.find((adapter) => adapter.id === id);
}
