import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

/** Reads a request body up to `limit` bytes; stops reading as soon as it is known to be larger. */
export function readRequestBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (part: Buffer): void => {
      size += part.length;
      if (size > limit) {
        cleanup();
        resolve({ kind: 'too-large' });
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
