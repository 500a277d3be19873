import type { JsonValue } from '../trace/trace.js';
import { asObject, type JsonRpcMessage } from './json-rpc.js';
import type { PendingMcpRequest } from './mcp-responder.js';

/** What is kept of the server's messages during one request: a server that streams progress forever cannot grow a recording without end. */
const maxInterim = 1_000;

/**
 * Keeps what the server sent during a recorded request, for replay: a progress notification goes
 * with the request whose progress token it carries; a request to the client (roots, sampling,
 * elicitation) with the latest request in flight — the transport names no request it belongs to.
 */
export function noteInterim(
  inFlight: Iterable<PendingMcpRequest>,
  message: Extract<JsonRpcMessage, { kind: 'notification' | 'request' }>,
): void {
  const pendings = [...inFlight];
  let owner: PendingMcpRequest | undefined;
  if (message.kind === 'request') owner = pendings.at(-1);
  else if (message.method === 'notifications/progress') {
    const token = asObject(message.params)?.['progressToken'];
    owner = pendings.find(
      (pending) => pending.progressToken !== undefined && pending.progressToken === token,
    );
  }
  if (!owner || owner.during.length >= maxInterim) return;
  const sent: { [key: string]: JsonValue } = { jsonrpc: '2.0' };
  if (message.kind === 'request') sent['id'] = message.id;
  sent['method'] = message.method;
  if (message.params !== undefined) sent['params'] = message.params;
  owner.during.push(sent);
}
