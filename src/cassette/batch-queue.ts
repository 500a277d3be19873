/**
 * Collects items and hands them over in one batch per event-loop turn (or sooner when the
 * batch is full), so per-item overhead (a postMessage, a transaction) is paid once per batch
 * and never on the response path.
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private scheduled = false;

  constructor(
    private readonly deliver: (batch: T[]) => void,
    private readonly maxBatch = 256,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Delivers everything queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.deliver(batch);
  }
}
