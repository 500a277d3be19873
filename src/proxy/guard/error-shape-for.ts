import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { errorShapeOfUpstream, findAdapter } from '../../providers/adapters.js';
import { anthropicMessagesAdapter } from '../../providers/anthropic-messages/anthropic-messages-adapter.js';
import { openAiChatAdapter } from '../../providers/openai-chat/openai-chat-adapter.js';
import type { ProviderAdapter } from '../../providers/provider-adapter.js';
import { sessionHeader } from '../headers.js';
import { passThroughTarget, signedForBedrock } from '../pass-through-upstream.js';
import { routePath } from '../route-path.js';
import { parseSessionRoute } from '../session-route.js';

/** Whether a request comes from an Anthropic client: its SDK always sends these headers, OpenAI-compatible clients never do. */
export function sentByAnthropicClient(headers: IncomingHttpHeaders): boolean {
  return headers['x-api-key'] !== undefined || headers['anthropic-version'] !== undefined;
}

/**
 * The adapter whose error envelope answers a request calltape failed on, so the agent's SDK
 * raises its own typed error: the captured route's adapter, else the shape of the upstream a
 * pass-through route goes to (Bedrock's when signed for Bedrock, by path, then Anthropic's when an Anthropic client sent it, else
 * OpenAI's), which also answers a target too broken to route.
 * Never throws: it runs on requests that already made a listener fail.
 */
export function errorShapeFor(
  request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
): ProviderAdapter {
  try {
    const method = request.method ?? 'GET';
    const route = parseSessionRoute(request.url ?? '/', request.headers[sessionHeader]);
    if (!('error' in route)) {
      const path = routePath(method, route.path).path;
      return (
        findAdapter(method, path) ??
        errorShapeOfUpstream(
          passThroughTarget(
            path,
            sentByAnthropicClient(request.headers),
            signedForBedrock(request.headers.authorization),
          ).upstream,
        )
      );
    }
  } catch {
    // The target itself may be what failed; who sent it still decides the shape.
  }
  return sentByAnthropicClient(request.headers) ? anthropicMessagesAdapter : openAiChatAdapter;
}
