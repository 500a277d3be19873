import { Worker } from 'node:worker_threads';
import type { CapturedRound } from '../cassette/captured-round.js';
import { packRounds } from '../cassette/pack-rounds.js';
import { workerScript } from '../worker-script.js';
import type { Policies } from './policy-types.js';
import type { RelayedMcpCall } from './relayed-mcp-calls.js';
import type { FromShadowWorker, ShadowWorkerData, ToShadowWorker } from './shadow-protocol.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

export interface ShadowQueueEvents {
  calls(verdicts: readonly CallVerdict[]): void;
  sessions(verdicts: readonly SessionVerdict[]): void;
  error(message: string): void;
}

/** Batches handed to the worker at once (see `inFlight`). */
const maxInFlight = 2;
/**
 * Response chunks after which a batch closes (the round that crosses it still goes), so one
 * postMessage stays near half a millisecond of the proxy thread's time: 256 whole answers, or 49
 * streams of 21 events.
 */
const maxBatchChunks = 1024;

/**
 * The shadow scorer as the proxy thread sees it: `offer` is all the response path does (a push
 * onto a bounded ring). Batches of up to `maxBatch` rounds and `maxBatchChunks` chunks go to the
 * scoring worker, two at a time; while it works the ring fills, and when the ring is full the
 * oldest round is dropped and counted — the traffic itself never waits. One batch of 16 at a
 * time left the worker idle ~30% of a saturated run, waiting for the busy proxy thread to send
 * the next, and it kept up with under half the traffic (issue 21, decision 0003).
 */
export class ShadowQueue {
  private readonly worker: Worker;
  private readonly ring: (CapturedRound | undefined)[];
  private head = 0;
  private size = 0;
  /** Batches posted and not yet scored (at most `maxInFlight`): the worker has the next while it scores one. */
  private inFlight = 0;
  private scheduled = false;
  private closing: Promise<void> | undefined;
  /** Wakes `close` when the worker answers (a batch done, closed) or exits. */
  private wake: (() => void) | undefined;
  private exited = false;
  /** Relayed MCP calls for the worker, sent together once per event-loop turn. */
  private mcpCalls: RelayedMcpCall[] = [];
  /** Rounds accepted and dropped (queue full) so far. */
  accepted = 0;
  dropped = 0;

  constructor(
    data: ShadowWorkerData,
    private readonly capacity: number,
    private readonly events: ShadowQueueEvents,
    private readonly maxBatch = 256,
  ) {
    this.ring = new Array<CapturedRound | undefined>(Math.max(1, capacity));
    this.worker = new Worker(workerScript('live/shadow-worker'), { workerData: data });
    this.worker.on('message', (message: FromShadowWorker) => {
      switch (message.type) {
        case 'batch-done':
          this.inFlight--;
          events.calls(message.calls);
          this.schedule();
          this.wake?.();
          break;
        case 'sessions':
          events.sessions(message.sessions);
          break;
        case 'error':
          events.error(message.message);
          break;
        case 'closed':
          this.wake?.();
          break;
      }
    });
    this.worker.on('error', (error) =>
      events.error(`the shadow-scoring worker failed: ${error.message}`),
    );
    this.worker.once('exit', () => {
      this.exited = true;
      this.inFlight = 0;
      this.wake?.();
    });
  }

  /** Rounds waiting for the worker. */
  get depth(): number {
    return this.size;
  }

  /** Takes a captured round; O(1), never blocks. */
  offer(round: CapturedRound): void {
    if (this.closing) return;
    this.accepted++;
    if (this.capacity <= 0) {
      this.dropped++;
      return;
    }
    if (this.size === this.capacity) {
      // Full: the oldest waiting round makes room. Fresh traffic says more about now than old.
      this.ring[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
      this.dropped++;
    }
    this.ring[(this.head + this.size) % this.capacity] = round;
    this.size++;
    this.schedule();
  }

  /** Takes a tools/call the `/mcp/<name>` route answered; never blocks (a burst beyond the capacity drops its oldest). */
  offerMcp(call: RelayedMcpCall): void {
    if (this.closing) return;
    if (this.mcpCalls.push(call) > Math.max(1, this.capacity)) this.mcpCalls.shift();
    if (this.mcpCalls.length > 1) return;
    setImmediate(() => {
      const calls = this.mcpCalls;
      this.mcpCalls = [];
      if (calls.length > 0 && !this.exited) this.post({ type: 'mcp-calls', calls });
    });
  }

  setPolicies(policies: Policies): void {
    this.post({ type: 'policies', policies });
  }

  setProxyUrl(baseUrl: string): void {
    this.post({ type: 'proxy-url', baseUrl });
  }

  /**
   * Scores what is queued, ends every open session and closes the database, within `graceMs`;
   * what is still queued then is dropped (counted and reported), and the thread is stopped.
   */
  close(graceMs: number): Promise<void> {
    this.closing ??= (async () => {
      const deadline = Date.now() + graceMs;
      const until = (ms: number): Promise<void> =>
        new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, Math.max(0, ms)).unref();
        });
      while ((this.size > 0 || this.inFlight > 0) && !this.exited && Date.now() < deadline) {
        if (this.inFlight < maxInFlight) this.deliver();
        await until(deadline - Date.now());
      }
      if (this.size > 0) {
        this.events.error(
          `shadow scoring: ${this.size} round trip(s) left unscored at shutdown (the grace period ran out)`,
        );
        this.dropped += this.size;
        this.ring.fill(undefined);
        this.size = 0;
      }
      if (!this.exited) {
        this.post({ type: 'close' });
        await until(Math.max(1_000, deadline - Date.now()));
      }
      await this.worker.terminate();
    })();
    return this.closing;
  }

  private post(message: ToShadowWorker): void {
    this.worker.postMessage(message);
  }

  private schedule(): void {
    if (this.inFlight >= maxInFlight || this.scheduled || this.size === 0 || this.closing) return;
    this.scheduled = true;
    // Once per event-loop turn: rounds finishing together go as one message.
    setImmediate(() => {
      this.scheduled = false;
      if (this.inFlight < maxInFlight && !this.closing) this.deliver();
    });
  }

  private deliver(): void {
    if (this.size === 0) return;
    const rounds: CapturedRound[] = [];
    let chunks = 0;
    // Bounded by chunks too: each is an object for postMessage to clone, ~0.5 µs apiece on the proxy thread.
    while (this.size > 0 && rounds.length < this.maxBatch && chunks < maxBatchChunks) {
      const round = this.ring[this.head] as CapturedRound;
      rounds.push(round);
      chunks += round.upstream?.chunks.length ?? 1;
      this.ring[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
    }
    this.inFlight++;
    // Packed into one transferred buffer, as the store's batches are: cloned as it is, a chunk that
    // views a larger buffer (Node's 8 KB pool) carries all of it across. undici's chunks own
    // buffers of their size, for which packing and cloning cost the same (~9-14 µs a stream round).
    const packed = packRounds(
      rounds,
      (round) => round,
      (_, round) => round,
    );
    this.worker.postMessage({ type: 'rounds', rounds: packed.items } satisfies ToShadowWorker, [
      packed.buffer,
    ]);
  }
}
