import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { CalltapeError } from '../../errors.js';
import type { ProviderAdapter } from '../../providers/provider-adapter.js';

/** Which listener a failure escaped from. */
export type ListenerKind = 'request' | 'upgrade';

/** What a guard does with a failure that escaped a listener: log it (with its code) and count it. */
export type ListenerFailureSink = (
  kind: ListenerKind,
  error: unknown,
  request: IncomingMessage,
) => void;

/** What a guard needs: where failures are told, and the provider whose error envelope answers a request. */
export interface ListenerGuard {
  readonly onFailure: ListenerFailureSink;
  errorShape(request: IncomingMessage): ProviderAdapter;
}

/** Malformed input (a bad percent-escape, a bad URL) answers 400 as INVALID_REQUEST; anything else is calltape's fault, 500 LISTENER_FAILED. */
function errorOf(error: unknown): CalltapeError {
  const malformed =
    error instanceof URIError || (error instanceof TypeError && /invalid url/i.test(error.message));
  return malformed
    ? new CalltapeError('INVALID_REQUEST', 'calltape: the request could not be read')
    : new CalltapeError('LISTENER_FAILED', 'calltape: internal error (logged as LISTENER_FAILED)');
}

/** The answer to a failed request: status and the body in the route's provider envelope. */
function failureAnswer(
  guard: ListenerGuard,
  request: IncomingMessage,
  error: unknown,
): { readonly status: number; readonly body: string } {
  const failure = errorOf(error);
  return {
    status: failure.status,
    body: JSON.stringify(guard.errorShape(request).errorBody(failure)),
  };
}

/**
 * Wraps the server's `request` listener so that nothing it throws or rejects with reaches the
 * process: the agent gets a 400 (malformed input) or 500 in its provider's error shape, or its
 * connection is cut when an answer had already begun.
 */
export function guardRequestListener(
  listener: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
  guard: ListenerGuard,
): (request: IncomingMessage, response: ServerResponse) => void {
  const fail = (request: IncomingMessage, response: ServerResponse, error: unknown): void => {
    guard.onFailure('request', error, request);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const { status, body } = failureAnswer(guard, request, error);
    response
      .writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      })
      .end(body);
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
 * Wraps the server's `upgrade` listener: a throw answers 400/500 (in the route's provider error
 * shape) on the raw socket and closes it, and the socket always has an error listener, so a
 * peer's reset cannot become an uncaught error.
 */
export function guardUpgradeListener(
  listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  guard: ListenerGuard,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    try {
      listener(request, socket, head);
    } catch (error) {
      guard.onFailure('upgrade', error, request);
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const { status, body } = failureAnswer(guard, request, error);
      socket.end(
        `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Internal Server Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
  };
}
