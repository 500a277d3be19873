import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

/**
 * Reads a request body up to `limit` bytes; stops keeping it as soon as it is known to be larger.
 * The rest of an oversized body is still read and dropped (memory stays bounded), so the 413
 * reaches a client that is still sending: closing with its bytes unread makes the kernel reset
 * the connection, and a busy client then loses the answer to EPIPE. The server's request
 * timeout (`timeouts.requestMs`) bounds how long such a body is drained.
 */
export function readRequestBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge(request));
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (part: Buffer): void => {
      size += part.length;
      if (size > limit) {
        cleanup();
        resolve(tooLarge(request));
        return;
      }
      parts.push(part);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({
        kind: 'ok',
        body: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size),
      });
    };
    const onClose = (): void => {
      cleanup();
      resolve({ kind: 'aborted' });
    };
    const cleanup = (): void => {
      request.off('data', onData).off('end', onEnd).off('close', onClose);
    };
    request.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/** Drops what is left of an oversized body as it arrives. */
function tooLarge(request: IncomingMessage): BodyResult {
  request.resume();
  return { kind: 'too-large' };
}
