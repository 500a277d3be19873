import { anthropicMessagesAdapter } from './anthropic-messages/anthropic-messages-adapter.js';
import { ollamaChatAdapter } from './ollama/ollama-chat-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { bedrockConverseAdapter } from './bedrock/bedrock-converse-adapter.js';
import { bedrockInvokeAdapter } from './bedrock/bedrock-invoke-adapter.js';
import { openAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
import { openAiResponsesAdapter } from './openai-responses/openai-responses-adapter.js';
import type { ProviderAdapter } from './provider-adapter.js';
import type { RouteQuery, UpstreamName, WireRoute } from './wire-route.js';

/** Every wire format the proxy captures, in match order. Routes none of them matches pass through untouched. */
export const adapters: readonly ProviderAdapter[] = [
  openAiChatAdapter,
  openAiResponsesAdapter,
  anthropicMessagesAdapter,
  ollamaChatAdapter,
  geminiAdapter,
  bedrockConverseAdapter,
  bedrockInvokeAdapter,
];

/**
 * The wire whose error envelope answers a request to an upstream when no adapter captured it
 * (a pass-through failure, a missing upstream setting): the agent's SDK for that upstream then
 * raises its own typed error. Upstreams without an entry answer in OpenAI's shape.
 */
const errorShapes: ReadonlyMap<UpstreamName, ProviderAdapter> = new Map<
  UpstreamName,
  ProviderAdapter
>([
  ['openai', openAiChatAdapter],
  ['azure', openAiChatAdapter],
  ['anthropic', anthropicMessagesAdapter],
  ['ollama', ollamaChatAdapter],
  ['gemini', geminiAdapter],
  ['vertex', geminiAdapter],
  ['bedrock', bedrockConverseAdapter],
]);

/** The adapter whose error shape an upstream's clients understand. */
export function errorShapeOfUpstream(upstream: UpstreamName): ProviderAdapter {
  return errorShapes.get(upstream) ?? openAiChatAdapter;
}

/** A captured request: the adapter whose wire it is and the route its path resolved to. */
export interface ResolvedWire {
  readonly adapter: ProviderAdapter;
  readonly route: WireRoute;
}

/** The first adapter that captures `method path` (query apart), with its route. */
export function resolveWire(
  method: string,
  path: string,
  query: RouteQuery = new Map(),
): ResolvedWire | undefined {
  for (const adapter of adapters) {
    const route = adapter.route(method, path, query);
    if (route) return { adapter, route };
  }
  return undefined;
}

/** The adapter that captures `method path`, if any. */
export function findAdapter(method: string, path: string): ProviderAdapter | undefined {
  return resolveWire(method, path)?.adapter;
}

/** Every route calltape captures, as named in messages. */
export function capturedRouteNames(): string {
  return adapters.flatMap((adapter) => adapter.routeNames ?? []).join(', ');
}

/** The adapter that produced a stored interaction. */
export function adapterById(id: string): ProviderAdapter | undefined {
  return adapters.find((adapter) => adapter.id === id);
}
