import type { ServerResponse } from 'node:http';
import type { JsonValue } from '../trace/trace.js';
import type { InterimMessage } from '../mcp/replay-interim.js';
import type { JsonRpcId } from '../mcp/json-rpc.js';
import { idKey } from './mcp-relay.js';

/** Requests replay sent a client and awaits its answer to, by id (`idKey`): the client POSTs the answer. */
export type AwaitedAnswers = Map<string, () => void>;

/**
 * A replayed answer with what the server sent before it, as the server streamed it: one SSE
 * stream on the POST, the interim messages in recorded order, each request to the client
 * awaited until the client POSTs its answer (or goes away), then the answer itself.
 */
export async function streamReplayedAnswer(
  response: ServerResponse,
  headers: Record<string, string>,
  interim: readonly InterimMessage[],
  body: JsonValue,
  awaiting: AwaitedAnswers,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...headers,
  });
  const gone = new Promise<void>((resolve) => response.once('close', resolve));
  for (const { message, awaitsAnswer } of interim) {
    const key = idKey(message['id'] as JsonRpcId);
    const answered = awaitsAnswer
      ? new Promise<void>((resolve) => awaiting.set(key, resolve))
      : undefined;
    response.write(event(message));
    if (!answered) continue;
    await Promise.race([answered, gone]);
    awaiting.delete(key);
    if (response.destroyed) return;
  }
  response.end(event(body));
}

function event(message: JsonValue): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}
