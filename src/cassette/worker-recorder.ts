import { Worker } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { workerScript } from '../worker-script.js';
import { BatchQueue } from './batch-queue.js';
import { effectiveRules } from './match-key.js';
import { packRounds } from './pack-rounds.js';
import type { CapturedRound } from './captured-round.js';
import { roundBytes } from './round-size.js';
import type {
  FromStoreWorker,
  RoutedRound,
  StoreWorkerData,
  ToStoreWorker,
} from './store-protocol.js';

/** Takes captured rounds off the proxy's hands. */
export interface Recorder {
  /**
   * Opens (creates, migrates, re-keys) a cassette in the worker; resolves once it is open (the
   * same promise for every caller until it is released), or rejects with STORE_IO.
   */
  open(cassette: string): Promise<void>;
  record(cassette: string, round: CapturedRound): void;
  /** Closes a cassette's write connection once what is queued for it is written (it reopens on the next use). */
  release(cassette: string): void;
  /** Compares a live round's tool calls with a recording's, off the proxy thread; the result arrives through `onDiff`. */
  diff(cassette: string, recordingId: string, round: CapturedRound): void;
  /** Writes everything recorded so far and closes every store. */
  close(): Promise<void>;
}

/** What a recorder tells its owner. */
export interface RecorderEvents {
  /** Rounds not stored (with how many), or the worker failing. */
  readonly error: (message: string) => void;
  /** A diff-mode comparison's result. */
  readonly diff?: (diff: StoreDiff) => void;
  /** A round not recorded because the store queue was full. */
  readonly dropped?: () => void;
  /** Recordings re-keyed for the current match rules when a cassette was opened: told once per opening. */
  readonly rekeyed?: (cassette: string, count: number) => void;
}

/** How a live round's tool calls differ from a recording's. */
export interface StoreDiff {
  readonly cassette: string;
  readonly recordingId: string;
  /** Method and redacted path of the live request. */
  readonly request: string;
  readonly lines: readonly string[];
}

/**
 * How long a captured round may wait to be posted with the rounds after it: at 500 round trips a
 * second this makes one message, one worker wake-up and one commit of 25 rounds instead of 25 of
 * one, which is most of what recording costs there (20 ms, batches of 10, cost the worker 40–90
 * µs more per round: docs/decisions/0003-proxy-at-the-floor.md). Nothing waits for it but the
 * file (close, release and diff flush at once).
 */
const storeWindowMs = 50;

/**
 * The store worker's young generation (MB). Left to V8 it grows to 32 MB under load, all of it
 * resident (a worker's heap is its own): at 128 concurrent streams 8 MB made the proxy's peak RSS
 * ~20 MB lower, and the worker's CPU per round stayed within the run-to-run spread (issue 21,
 * docs/decisions/0003-proxy-at-the-floor.md).
 */
const storeYoungGenerationMb = 8;

/**
 * A recorder whose store worker starts when it is first needed (a cassette opened for writing, a
 * round recorded, a diff asked for). Rounds are batched (`storeWindowMs`) and posted to it. What waits
 * for the worker is bounded by `limits.maxStoreQueueBytes`: past it a round is not recorded,
 * and `dropped` hears of it (a slow disk must not become unbounded memory).
 */
export function startWorkerRecorder(config: Config, events: RecorderEvents): Recorder {
  const { error: onError, diff: onDiff, dropped: onDropped, rekeyed: onRekeyed } = events;
  const handledBytes = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const handled = new BigInt64Array(handledBytes);
  const data: StoreWorkerData = {
    match: effectiveRules(config.match),
    redactHeaders: config.redact.headers,
    bodyPatterns: config.redact.bodyPatterns,
    builtinPatterns: config.redact.builtinPatterns,
    maxDecodedBytes: config.limits.maxDecodedBytes,
    handledBytes,
  };
  /** Each cassette's opening in the worker, shared by every caller until it is released. */
  const opening = new Map<string, Promise<void>>();
  let closed: Promise<void> | undefined;
  /** Bytes of every round queued so far; less what the worker has handled, what waits for it. */
  let queuedBytes = 0;
  const pendingBytes = (): number => queuedBytes - Number(Atomics.load(handled, 0));
  // Started at its first use: a proxy that never writes or compares (passthrough, replay) keeps
  // no worker, whose isolate and native allocations are ~10 MB resident idle (issue 21).
  let started: Worker | undefined;
  const worker = (): Worker => {
    if (started) return started;
    started = new Worker(workerScript('cassette/store-worker'), {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: storeYoungGenerationMb },
    });
    started.on('message', (message: FromStoreWorker) => {
      if (message.type === 'write-error')
        onError(
          message.lost > 0
            ? `could not store ${message.lost} interaction(s): ${message.message}`
            : message.message,
        );
      if (message.type === 'diffed') onDiff?.(message);
    });
    started.on('error', (error) => onError(`the store worker failed: ${error.message}`));
    return started;
  };
  const post = (message: ToStoreWorker, transfer: ArrayBuffer[] = []): void => {
    // After close nothing more is written: a late message must not start a worker nobody stops.
    if (closed && !started) return;
    worker().postMessage(message, transfer);
  };
  const queue = new BatchQueue<RoutedRound>(
    (rounds) => {
      const packed = packRounds(
        rounds,
        (routed) => routed.round,
        (routed, round) => ({ cassette: routed.cassette, round }),
      );
      post({ type: 'rounds', rounds: packed.items }, [packed.buffer]);
    },
    256,
    storeWindowMs,
  );
  return {
    open(cassette) {
      // Opening would start a worker that close already ran past, and nobody would stop it.
      if (closed)
        return Promise.reject(
          new CalltapeError('STORE_IO', `${cassette}: not opened, the store is closing`),
        );
      let opened = opening.get(cassette);
      if (!opened) {
        opened = new Promise<void>((resolve, reject) => {
          const onMessage = (message: FromStoreWorker): void => {
            if (
              (message.type !== 'opened' && message.type !== 'open-failed') ||
              message.cassette !== cassette
            )
              return;
            worker().off('message', onMessage);
            if (message.type === 'opened') {
              if (message.rekeyed > 0) onRekeyed?.(cassette, message.rekeyed);
              resolve();
            } else reject(new CalltapeError('STORE_IO', message.message));
          };
          worker().on('message', onMessage);
        });
        opening.set(cassette, opened);
        post({ type: 'open', cassette });
      }
      return opened;
    },
    record(cassette, round) {
      const bytes = roundBytes(round);
      const pending = pendingBytes();
      if (pending + bytes > config.limits.maxStoreQueueBytes) {
        onDropped?.();
        onError(
          `could not store 1 interaction(s): ${cassette}: ${round.request.method} ${round.request.path.split('?')[0] ?? ''}: the store queue holds ${pending} bytes, over limits.maxStoreQueueBytes (${config.limits.maxStoreQueueBytes})`,
        );
        return;
      }
      queuedBytes += bytes;
      queue.push({ cassette, round });
    },
    release(cassette) {
      queue.flush();
      opening.delete(cassette);
      // Cassettes only read (replay) were never opened in a worker: none to start for this.
      if (started) post({ type: 'release', cassette });
    },
    diff(cassette, recordingId, round) {
      queue.flush();
      post({ type: 'diff', cassette, recordingId, round });
    },
    close() {
      closed ??= (async () => {
        queue.flush();
        // Nothing was ever posted: there is no worker, and nothing to write.
        if (!started) return;
        const running = started;
        // Messages are handled in order, so 'closed' arrives after every batch is written.
        const done = new Promise<void>((resolve) => {
          running.on('message', (message: FromStoreWorker) => {
            if (message.type === 'closed') resolve();
          });
          running.once('exit', () => resolve());
        });
        post({ type: 'close' });
        await done;
        await running.terminate();
      })();
      return closed;
    },
  };
}
