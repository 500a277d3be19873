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
 * Where a server message came: `shared` (stdio: one channel for everything), a request's own
 * stream (`request`: a Streamable HTTP POST's SSE answer), or the server's own stream
 * (`standalone`: the GET stream, tied to no POST).
 */
export type InterimChannel = 'shared' | 'request' | 'standalone';

/**
 * Keeps what the server sent during a recorded request, for replay: a progress notification goes
 * with the request whose progress token it carries; a request to the client (roots, sampling,
 * elicitation) with the latest request in flight — the transport names no request it belongs to.
 * On a request's own stream any other notification (a log line) goes with that request too (the
 * stream says whose it is; on stdio a log line names no request and is not kept). On the
 * server's own stream (`standalone`), any notification (a log line, a list changed) goes with
 * the latest request in flight too, kept as a `StandaloneInterim`; with none in flight it is not
 * kept (no recorded answer would bring it back).
 */
export function noteInterim(
  inFlight: Iterable<PendingMcpRequest>,
  message: Extract<JsonRpcMessage, { kind: 'notification' | 'request' }>,
  channel: InterimChannel = 'shared',
): void {
  const standalone = channel === 'standalone';
  const pendings = [...inFlight];
  let owner: PendingMcpRequest | undefined;
  if (message.method === 'notifications/progress') {
    const token = asObject(message.params)?.['progressToken'];
    owner = pendings.find(
      (pending) => pending.progressToken !== undefined && pending.progressToken === token,
    );
  } else if (message.kind === 'request' || channel !== 'shared') owner = pendings.at(-1);
  if (!owner || owner.during.length >= maxInterim) return;
  const sent: { [key: string]: JsonValue } = { jsonrpc: '2.0' };
  if (message.kind === 'request') sent['id'] = message.id;
  sent['method'] = message.method;
  if (message.params !== undefined) sent['params'] = message.params;
  owner.during.push(standalone ? { stream: 'standalone', message: sent } : sent);
}
