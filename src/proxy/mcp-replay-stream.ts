import type { ServerResponse } from 'node:http';
import type { JsonValue } from '../trace/trace.js';
import type { InterimMessage } from '../mcp/replay-interim.js';
import type { JsonRpcId } from '../mcp/json-rpc.js';
import { idKey } from './mcp-relay.js';

/** Requests replay sent a client and awaits its answer to, by id (`idKey`): the client POSTs the answer. */
export type AwaitedAnswers = Map<string, () => void>;

/** The server's own stream (GET) of a replayed session, while the client holds it open. */
export interface StandaloneStream {
  response: ServerResponse | undefined;
}

/**
 * A replayed session's GET: the server's own stream, held open as an SSE stream for what the
 * server sent there while it was recorded. One per session (a second gets 409, as the SDK's
 * server answers); an unknown session gets 404, a client without a session (a stateless
 * server's) 405, so it works without the stream as the spec allows.
 */
export function openStandaloneStream(
  response: ServerResponse,
  sessionId: string | undefined,
  stream: StandaloneStream | undefined,
): void {
  if (sessionId === undefined) return void response.writeHead(405, { allow: 'POST, DELETE' }).end();
  if (!stream) return void response.writeHead(404).end();
  if (stream.response && !stream.response.destroyed) return void response.writeHead(409).end();
  stream.response = response;
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'mcp-session-id': sessionId,
  });
  // Headers out now: the client learns the stream is open before anything is sent on it.
  response.flushHeaders();
  response.once('close', () => {
    if (stream.response === response) stream.response = undefined;
  });
}

/**
 * A replayed answer with what the server sent before it, as the server streamed it: one SSE
 * stream on the POST, the interim messages in recorded order, each request to the client
 * awaited until the client POSTs its answer (or goes away), then the answer itself. What the
 * server sent on its own stream goes on the client's GET stream when one is open (else on the
 * POST's, so the client still sees it).
 */
export async function streamReplayedAnswer(
  response: ServerResponse,
  headers: Record<string, string>,
  interim: readonly InterimMessage[],
  body: JsonValue,
  awaiting: AwaitedAnswers,
  standalone: StandaloneStream,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...headers,
  });
  const gone = new Promise<void>((resolve) => response.once('close', resolve));
  for (const interimMessage of interim) {
    const { message, awaitsAnswer } = interimMessage;
    const key = idKey(message['id'] as JsonRpcId);
    const answered = awaitsAnswer
      ? new Promise<void>((resolve) => awaiting.set(key, resolve))
      : undefined;
    const own = interimMessage.standalone ? standalone.response : undefined;
    (own && !own.destroyed ? own : response).write(event(message));
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
