/**
 * Collects items and hands them over in one batch per event-loop turn, or per `windowMs` when
 * one is given (or sooner when the batch is full), so per-item overhead (a postMessage, a
 * wake-up of the other thread, a transaction's commit) is paid once per batch and never on the
 * response path. A window matters at moderate rates, where a turn holds one item and each item
 * would otherwise pay the whole per-batch cost alone.
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private scheduled: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly deliver: (batch: T[]) => void,
    private readonly maxBatch = 256,
    private readonly windowMs = 0,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (this.scheduled === undefined)
      this.scheduled =
        this.windowMs > 0
          ? setTimeout(() => this.flush(), this.windowMs)
          : setImmediate(() => this.flush());
  }

  /** Delivers everything queued now. */
  flush(): void {
    if (this.scheduled !== undefined) {
      clearTimeout(this.scheduled as ReturnType<typeof setTimeout>);
      clearImmediate(this.scheduled as ReturnType<typeof setImmediate>);
      this.scheduled = undefined;
    }
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.deliver(batch);
  }
}
