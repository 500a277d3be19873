import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What the server must wait for or cut at shutdown: requests being answered, and relayed
 * WebSocket connections (which are not the HTTP server's to close).
 */
export class ConnectionTracker {
  private count = 0;
  private drained: (() => void) | undefined;
  private readonly upgraded = new Set<Duplex>();

  /** Requests being answered right now. */
  get inFlight(): number {
    return this.count;
  }

  /** Counts a request until its response closes. */
  request(response: ServerResponse): void {
    this.count++;
    response.once('close', () => {
      this.count--;
      if (this.count === 0) this.drained?.();
    });
  }

  /** Tracks an upgraded socket until it closes. */
  upgrade(socket: Duplex): void {
    this.upgraded.add(socket);
    socket.once('close', () => this.upgraded.delete(socket));
  }

  /** Resolves when no request is in flight, or after `graceMs`, whichever comes first. */
  async drain(graceMs: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      this.drained = resolve;
      setTimeout(resolve, graceMs).unref();
    });
  }

  /** Cuts every upgraded socket still open. */
  destroyUpgraded(): void {
    for (const socket of this.upgraded) socket.destroy();
  }
}
