/**
 * How many response bytes one round trip may keep for recording and scoring. The agent's copy
 * is never limited; past the budget capture stops (an endless stream or a huge body would
 * otherwise grow without bound) and `truncated` says why.
 */
export class CaptureBudget {
  private used = 0;
  /** Why capture stopped; undefined while within the budget. */
  truncated: string | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Whether a chunk of this many bytes may still be kept. */
  take(bytes: number): boolean {
    if (this.truncated !== undefined) return false;
    if (this.used + bytes > this.maxBytes) {
      this.truncated = `capture truncated: the response exceeds ${this.maxBytes} bytes (limits.maxResponseBytes); the agent received all of it`;
      return false;
    }
    this.used += bytes;
    return true;
  }
}
