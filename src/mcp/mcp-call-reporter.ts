import { Pool } from 'undici';
import { mcpCallsPath, maxReportedCalls, type ReportedMcpCall } from './mcp-call-report.js';

export interface McpCallReporterOptions {
  /** The proxy's address (`http://127.0.0.1:4545`; a path such as `/v1` is ignored). */
  readonly proxyUrl: string;
  /** The proxy's admin token, when it has one. */
  readonly token: string | undefined;
  /** Where the reporter says it cannot report (once per outage), and that it reports again. */
  readonly log: (message: string) => void;
  /** Calls waiting beyond this many, or these many bytes, drop the oldest. */
  readonly maxQueued?: number;
  readonly maxQueuedBytes?: number;
  /** After a failed post, the next waits this long (calls meanwhile queue up, bounded). */
  readonly retryMs?: number;
  /** Time a post may take before it counts as failed. */
  readonly timeoutMs?: number;
  /**
   * A call waits this long for others to share its post: one post per burst rather than per
   * call keeps the relay's own work (and the proxy's) off the session's consecutive calls.
   */
  readonly lingerMs?: number;
}

/** One post carries at most this many bytes of calls (always at least one call). */
const maxBatchBytes = 1024 * 1024;

/**
 * Posts the relay's answered tools/calls to a running proxy, so its shadow scorer and dashboard
 * see them as they see calls relayed through `/mcp/<name>`. Fire and forget: `report` is a push
 * onto a bounded queue, calls of a burst share one post, one post is in flight at a time, and a proxy that is down, refuses the
 * token or does not shadow-score is said once (again only after it answered in between), never
 * per call. The MCP session never waits for it.
 */
export class McpCallReporter {
  private readonly pool: Pool;
  private readonly url: URL;
  private readonly queue: { readonly json: string; readonly bytes: number }[] = [];
  private queuedBytes = 0;
  private posting: Promise<void> | undefined;
  private failing = false;
  private retryAt = 0;
  private closed = false;
  private destroyed = false;
  /** Calls in the post under way. */
  private inFlight = 0;
  /** Calls that never reached the proxy: dropped from a full queue, or in a post that failed. */
  lost = 0;
  /** Calls the proxy took. */
  delivered = 0;

  constructor(private readonly options: McpCallReporterOptions) {
    this.url = new URL(mcpCallsPath, options.proxyUrl);
    const timeout = options.timeoutMs ?? 5_000;
    this.pool = new Pool(this.url.origin, {
      connections: 1,
      connectTimeout: timeout,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  /** Queues a call for the proxy; O(size of the call), never waits. */
  report(call: ReportedMcpCall): void {
    if (this.closed) return;
    const json = JSON.stringify(call);
    const bytes = Buffer.byteLength(json);
    this.queue.push({ json, bytes });
    this.queuedBytes += bytes;
    const maxQueued = this.options.maxQueued ?? 1_000;
    const maxBytes = this.options.maxQueuedBytes ?? 64 * 1024 * 1024;
    while (this.queue.length > 1 && (this.queue.length > maxQueued || this.queuedBytes > maxBytes))
      this.drop();
    this.start();
  }

  /** Posts what is still queued, for at most `graceMs`; then stops (what is left counts as lost). */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    this.retryAt = 0;
    const deadline = Date.now() + graceMs;
    while ((this.posting || this.queue.length > 0) && Date.now() < deadline && !this.failing) {
      this.start();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.posting,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
    }
    this.lost += this.queue.length + this.inFlight;
    this.queue.length = 0;
    this.destroyed = true;
    await this.pool.destroy();
    if (this.lost > 0)
      this.options.log(
        `calltape mcp: ${this.lost} tool call(s) were not reported to ${this.url.origin}`,
      );
  }

  private drop(): void {
    const dropped = this.queue.shift();
    if (dropped) this.queuedBytes -= dropped.bytes;
    this.lost++;
  }

  /** Posts the queue, after the linger (unless `lingered` already) and any retry wait. */
  private start(lingered = false): void {
    if (this.posting || this.queue.length === 0) return;
    const linger = this.closed || lingered ? 0 : (this.options.lingerMs ?? 100);
    const wait = Math.max(this.retryAt - Date.now(), linger);
    if (wait > 0 && !this.closed) {
      this.posting = new Promise<void>((resolve) => setTimeout(resolve, wait).unref()).then(() => {
        this.posting = undefined;
        this.start(true);
      });
      return;
    }
    this.posting = this.postBatch().finally(() => {
      this.posting = undefined;
      if (!this.closed || !this.failing) this.start();
    });
  }

  private async postBatch(): Promise<void> {
    const batch: string[] = [];
    let bytes = 0;
    while (
      batch.length < Math.min(64, maxReportedCalls) &&
      this.queue[0] &&
      (batch.length === 0 || bytes + this.queue[0].bytes <= maxBatchBytes)
    ) {
      const next = this.queue.shift() as { json: string; bytes: number };
      this.queuedBytes -= next.bytes;
      bytes += next.bytes;
      batch.push(next.json);
    }
    this.inFlight = batch.length;
    const problem = await this.post(`{"calls":[${batch.join(',')}]}`);
    this.inFlight = 0;
    // Cut short by close: already counted there.
    if (this.destroyed) return;
    if (problem === undefined) {
      this.delivered += batch.length;
      if (this.failing)
        this.options.log(`calltape mcp: reporting tool calls to ${this.url.origin} again`);
      this.failing = false;
      return;
    }
    this.lost += batch.length;
    this.retryAt = Date.now() + (this.options.retryMs ?? 1_000);
    if (this.failing) return;
    this.failing = true;
    this.options.log(
      `calltape mcp: cannot report tool calls to ${this.url.origin}${mcpCallsPath}: ${problem}; the MCP session goes on, its calls unreported until the proxy answers (said once)`,
    );
  }

  /** Undefined when the proxy took the calls, else what went wrong. */
  private async post(body: string): Promise<string | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.token !== undefined) headers['authorization'] = `Bearer ${this.options.token}`;
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: this.url.pathname,
        headers,
        body,
      });
      const text = await response.body.text();
      if (response.statusCode < 300) return undefined;
      return `HTTP ${response.statusCode} ${errorMessage(text)}`.trimEnd();
    } catch (error) {
      return (error as Error).message || (error as Error).name;
    }
  }
}

/** The message of the proxy's `{ "error": { "message" } }` answer, short. */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? `(${message.slice(0, 300)})` : '';
  } catch {
    return '';
  }
}
