import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/** How the scoring thread gathers and retries its writes. */
export interface VerdictWriterOptions {
  /** Calls gathered before a write starts at once (default 512). */
  readonly batchCalls?: number;
  /** How long verdicts wait to be gathered, ms (default 100). */
  readonly delayMs?: number;
  /** How long after a failed write the next try starts, ms (default 1 s). */
  readonly retryMs?: number;
  /** Verdicts (calls and sessions) kept unwritten at most; beyond, the oldest are dropped and counted (default 50,000). */
  readonly maxPending?: number;
}

/**
 * Verdicts on their way to the shadow store. Writes are gathered (a store's cost per row falls
 * steeply with rows per commit): at most every `delayMs`, or at `batchCalls` calls. A write that
 * fails (the database slow, down or restarting) keeps its verdicts and tries again after
 * `retryMs`, so nothing is lost to an outage shorter than the bound; past `maxPending`, the
 * oldest are dropped and counted, as the proxy thread's queue does with rounds.
 */
export class VerdictWriter {
  private calls: CallVerdict[] = [];
  private sessions: SessionVerdict[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  /** Verdicts dropped unwritten (the bound was reached while the store failed). */
  dropped = 0;
  private readonly batchCalls: number;
  private readonly delayMs: number;
  private readonly retryMs: number;
  private readonly maxPending: number;

  constructor(
    private readonly write: (
      calls: readonly CallVerdict[],
      sessions: readonly SessionVerdict[],
    ) => void,
    private readonly report: (message: string) => void,
    options: VerdictWriterOptions = {},
  ) {
    this.batchCalls = options.batchCalls ?? 512;
    this.delayMs = options.delayMs ?? 100;
    this.retryMs = options.retryMs ?? 1_000;
    this.maxPending = options.maxPending ?? 50_000;
  }

  /** Verdicts waiting to be written. */
  get pending(): number {
    return this.calls.length + this.sessions.length;
  }

  /** Queues verdicts; the write starts at once past `batchCalls`, else within `delayMs`. */
  add(calls: readonly CallVerdict[], sessions: readonly SessionVerdict[]): void {
    for (const call of calls) this.calls.push(call);
    for (const session of sessions) this.sessions.push(session);
    this.bound();
    if (this.calls.length >= this.batchCalls && !this.failing) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.failing ? this.retryMs : this.delayMs);
  }

  /** Writes what is waiting now; true when nothing is left (written, or nothing to write). */
  flush(): boolean {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === 0) return true;
    const { calls, sessions } = this;
    this.calls = [];
    this.sessions = [];
    try {
      this.write(calls, sessions);
      if (this.failing) this.report('shadow scoring is storing verdicts again');
      this.failing = false;
      return true;
    } catch (error) {
      // Kept, in order, ahead of anything queued since; tried again after retryMs.
      this.calls = [...calls, ...this.calls];
      this.sessions = [...sessions, ...this.sessions];
      this.bound();
      if (!this.failing)
        this.report(
          `shadow scoring could not store ${calls.length} call and ${sessions.length} session verdict(s), keeping them (at most ${this.maxPending}) and trying again every ${this.retryMs} ms: ${(error as Error).message}`,
        );
      this.failing = true;
      this.timer = setTimeout(() => this.flush(), this.retryMs);
      return false;
    }
  }

  /** Stops retrying (shutdown): what is still pending stays unwritten. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Drops the oldest verdicts past `maxPending`, calls first (sessions carry more). */
  private bound(): void {
    let over = this.pending - this.maxPending;
    if (over <= 0) return;
    const calls = Math.min(over, this.calls.length);
    this.calls.splice(0, calls);
    over -= calls;
    this.sessions.splice(0, over);
    this.dropped += calls + over;
  }
}
