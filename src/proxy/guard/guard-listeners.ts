import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Which listener a failure escaped from. */
export type ListenerKind = 'request' | 'upgrade';

/** What a guard does with a failure that escaped a listener: log it (with its code) and count it. */
export type ListenerFailureSink = (kind: ListenerKind, error: unknown, request: IncomingMessage) => void;

/** Malformed input (a bad percent-escape, a bad URL) surfaces as these; they answer 400, anything else 500. */
function statusOf(error: unknown): 400 | 500 {
  return error instanceof URIError || (error instanceof TypeError && /invalid url/i.test(error.message)) ? 400 : 500;
}

const failureBody = (status: number): string =>
  JSON.stringify({ error: { message: status === 400 ? 'calltape: the request could not be read' : 'calltape: internal error', type: status === 400 ? 'invalid_request_error' : 'calltape_error', code: 'LISTENER_FAILED' } });

/**
 * Wraps the server's `request` listener so that nothing it throws or rejects with reaches the
 * process: the agent gets a 400 (malformed input) or 500, or its connection is cut when an answer
 * had already begun.
 */
export function guardRequestListener(
  listener: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
  onFailure: ListenerFailureSink,
): (request: IncomingMessage, response: ServerResponse) => void {
  const fail = (request: IncomingMessage, response: ServerResponse, error: unknown): void => {
    onFailure('request', error, request);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const status = statusOf(error);
    const body = failureBody(status);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
  };
  return (request, response) => {
    try {
      const result = listener(request, response);
      if (result) result.catch((error: unknown) => fail(request, response, error));
    } catch (error) {
      fail(request, response, error);
    }
  };
}

/**
 * Wraps the server's `upgrade` listener: a throw answers 400/500 on the raw socket and closes it,
 * and the socket always has an error listener, so a peer's reset cannot become an uncaught error.
 */
export function guardUpgradeListener(
  listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  onFailure: ListenerFailureSink,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    try {
      listener(request, socket, head);
    } catch (error) {
      onFailure('upgrade', error, request);
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const status = statusOf(error);
      const body = failureBody(status);
      socket.end(`HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Internal Server Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    }
  };
}
