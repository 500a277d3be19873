/**
 * Collects items and hands them over in one batch every `windowMs` (or sooner when the batch is
 * full; `0`: once per event-loop turn), so per-item overhead (a postMessage, a transaction) is
 * paid once per batch and never on the response path. A transaction's cost is mostly the pages
 * it touches, so rows per commit decide the store's throughput: measured on SQLite, 162 µs per
 * row one at a time, 67 µs eight at a time, 44 µs sixty-four at a time.
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private scheduled = false;

  constructor(
    private readonly deliver: (batch: T[]) => void,
    private readonly maxBatch = 256,
    private readonly windowMs = 0,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      if (this.windowMs > 0) setTimeout(() => this.flush(), this.windowMs).unref();
      else setImmediate(() => this.flush());
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
