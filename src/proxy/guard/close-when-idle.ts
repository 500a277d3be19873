import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

const armed = new WeakSet<Socket>();

/**
 * Frees an upgraded socket that carries no traffic either way for `idleMs` (a relayed WebSocket
 * whose client went silent; its relay then closes the upstream side). Arm it again once a
 * WebSocket library has taken the socket over: ws and http-proxy-3 both clear socket timeouts
 * when they do (`setTimeout(0)`).
 */
export function closeWhenIdle(socket: Duplex, idleMs: number): void {
  if (!(socket instanceof Socket)) return;
  socket.setTimeout(idleMs);
  if (armed.has(socket)) return;
  armed.add(socket);
  socket.once('timeout', () => socket.destroy());
}
