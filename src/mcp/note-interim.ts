import type { JsonValue } from '../trace/trace.js';
import { asObject, type JsonRpcMessage } from './json-rpc.js';
import type { PendingMcpRequest } from './mcp-responder.js';

/** What is kept of the server's messages during one request: a server that streams progress forever cannot grow a recording without end. */
const maxInterim = 1_000;

/**
 * How a message the server sent on its own stream (the Streamable HTTP GET stream, tied to no
 * POST) is kept in `during`: wrapped, so replay knows to send it there, and a calltape that
 * predates it skips it rather than sending it on the wrong stream.
 */
export interface StandaloneInterim {
  readonly stream: 'standalone';
  readonly message: JsonValue;
}

/**
 * Keeps what the server sent during a recorded request, for replay: a progress notification goes
 * with the request whose progress token it carries; a request to the client (roots, sampling,
 * elicitation) with the latest request in flight — the transport names no request it belongs to.
 * On the server's own stream (`standalone`), any notification (a log line, a list changed) goes
 * with the latest request in flight too, kept as a `StandaloneInterim`; with none in flight it is
 * not kept (no recorded answer would bring it back).
 */
export function noteInterim(
  inFlight: Iterable<PendingMcpRequest>,
  message: Extract<JsonRpcMessage, { kind: 'notification' | 'request' }>,
  standalone = false,
): void {
  const pendings = [...inFlight];
  let owner: PendingMcpRequest | undefined;
  if (message.method === 'notifications/progress') {
    const token = asObject(message.params)?.['progressToken'];
    owner = pendings.find(
      (pending) => pending.progressToken !== undefined && pending.progressToken === token,
    );
  } else if (message.kind === 'request' || standalone) owner = pendings.at(-1);
  if (!owner || owner.during.length >= maxInterim) return;
  const sent: { [key: string]: JsonValue } = { jsonrpc: '2.0' };
  if (message.kind === 'request') sent['id'] = message.id;
  sent['method'] = message.method;
  if (message.params !== undefined) sent['params'] = message.params;
  owner.during.push(standalone ? { stream: 'standalone', message: sent } : sent);
}
