import type { JsonValue } from '../trace/trace.js';
import { asObject, type JsonRpcId } from './json-rpc.js';

/** A message replay sends before a recorded answer, and whether the client is to answer it first. */
export interface InterimMessage {
  readonly message: { readonly [key: string]: JsonValue };
  /** A request to the client (roots, sampling, elicitation): replay waits for its answer, as the server did. */
  readonly awaitsAnswer: boolean;
  /** The server sent it on its own stream (the Streamable HTTP GET stream), not the request's. */
  readonly standalone: boolean;
}

/** The `_meta.progressToken` a client gave a request, if any. */
export function progressTokenOf(params: JsonValue | undefined): JsonRpcId | undefined {
  const token = asObject(asObject(params)?.['_meta'])?.['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * What the server sent during a recorded request, readied for this client: progress
 * notifications carry the client's own progress token (and are left out when it gave none — it
 * asked for no progress), requests to the client get fresh ids (`nextId`), so they never clash
 * with the client's own. Anything else recorded is sent as it was. What the server sent on its
 * own stream is marked `standalone` (an HTTP replay sends it on the client's GET stream).
 */
export function interimMessages(
  during: readonly JsonValue[],
  progressToken: JsonRpcId | undefined,
  nextId: () => JsonRpcId,
): InterimMessage[] {
  const messages: InterimMessage[] = [];
  for (const value of during) {
    const kept = asObject(value);
    const standalone = kept?.['stream'] === 'standalone';
    const message = standalone ? asObject(kept['message']) : kept;
    if (!message || typeof message['method'] !== 'string') continue;
    if (message['id'] !== undefined && message['id'] !== null) {
      messages.push({ message: { ...message, id: nextId() }, awaitsAnswer: true, standalone });
    } else if (message['method'] === 'notifications/progress') {
      if (progressToken === undefined) continue;
      messages.push({
        message: { ...message, params: { ...asObject(message['params']), progressToken } },
        awaitsAnswer: false,
        standalone,
      });
    } else messages.push({ message, awaitsAnswer: false, standalone });
  }
  return messages;
}
