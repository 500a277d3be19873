import { connect } from 'node:net';

/**
 * Sends bytes exactly as given (clients normalise paths and headers, so a probe must not use
 * one) and resolves with everything the server wrote before it closed the connection.
 */
export function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    const received = (): string => Buffer.concat(parts).toString('latin1');
    socket.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      // An accepted upgrade stays open: its answer is complete once the headers are.
      if (received().startsWith('HTTP/1.1 101') && received().includes('\r\n\r\n'))
        socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(received()) : reject(error),
    );
    socket.on('close', () => resolve(received()));
    // Not half-closed: a proxy may treat the client's end as an abort; requests say Connection: close instead.
    socket.write(text);
  });
}

/** The status code of a raw response, or 0 when the server closed without answering. */
export function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}

/** A WebSocket upgrade request for `path` with extra header lines. */
export function upgradeRequest(path: string, headers: Record<string, string> = {}): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
