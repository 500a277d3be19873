import type { RecordedExchange } from './recorded-exchange.js';

/** Where finished exchanges go; the SQLite store in production, anything with `append` in tests. */
export interface ExchangeSink {
  append(exchanges: readonly RecordedExchange[]): void;
}

/**
 * Batches finished exchanges and writes them in one transaction per event-loop turn, after the
 * responses they belong to have been sent, so storage never sits on the response path while
 * every completed interaction reaches disk within a turn of completing.
 */
export class StoreWriter {
  private queue: RecordedExchange[] = [];
  private scheduled = false;
  private failures = 0;

  constructor(
    private readonly sink: ExchangeSink,
    private readonly onError: (error: unknown, lost: number) => void,
    private readonly maxBatch = 256,
  ) {}

  enqueue(exchange: RecordedExchange): void {
    this.queue.push(exchange);
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes everything queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.sink.append(batch);
    } catch (error) {
      this.failures += batch.length;
      this.onError(error, batch.length);
    }
  }

  /** Exchanges that could not be written (disk full, store locked…). */
  get failed(): number {
    return this.failures;
  }
}
