import { Worker } from 'node:worker_threads';
import { BatchQueue } from '../cassette/batch-queue.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { packRounds } from '../cassette/pack-rounds.js';
import { roundBytes } from '../cassette/round-size.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../logger.js';
import type { McpExchange } from '../mcp/mcp-exchange.js';
import type { SpannedExchange } from '../mcp/mcp-spans.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import { workerScript } from '../worker-script.js';
import type { FromOtelWorker, OtelItem, OtelWorkerData, ToOtelWorker } from './otel-protocol.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/** The proxy's OTel sink: round trips and shadow verdicts in, GenAI spans out, never on the response path. */
export interface ProxySpans {
  /** A round trip is done. Returns at once: the round is posted to the export worker with others. */
  round(round: CapturedRound): void;
  /** An MCP exchange the proxy's `/mcp/<name>` route answered (redacted): traced like a round, in the same order. */
  mcp(exchange: McpExchange): void;
  /** Shadow verdicts of calls: `gen_ai.evaluation.result` events on their session. */
  calls(verdicts: readonly CallVerdict[]): void;
  /** Shadow verdicts of sessions the scorer saw go idle: events, then the session span ends. */
  sessions(verdicts: readonly SessionVerdict[]): void;
  /** Traces what is queued, ends every session, sends what it can within `graceMs` and stops the worker. */
  close(graceMs: number): Promise<void>;
}

export interface ProxySpanOptions {
  /** The redaction the store applies (`redact` of the config). */
  readonly redact: Config['redact'];
  readonly logger: Logger;
  /** `limits.maxDecodedBytes`: what parsing one round may decode. */
  readonly maxDecodedBytes: number;
  /** A session with no round for this long is ended (its `invoke_agent` span is sent). */
  readonly sessionIdleMs: number;
  /** Counted in /metrics: what was lost (`round`: the worker's queue was full, or it could not parse one; `span`: the export's). */
  readonly dropped: (what: 'round' | 'span', count: number) => void;
  readonly exported: (spans: number) => void;
  /** Rounds and MCP exchanges posted to the worker and not traced yet; beyond it new ones are dropped (and counted). */
  readonly maxQueuedRounds?: number;
  /** Raw bytes of those rounds (bodies as captured); beyond it a new round is dropped (and counted). */
  readonly maxQueuedBytes?: number;
}

/**
 * The default bounds of what the worker has not traced yet. Bytes bound the memory: a round holds
 * its raw bodies until traced, so a count alone would let 10,000 large rounds pile up. The count
 * bounds items whose bodies are small or absent (MCP exchanges, verdicts ride along uncounted),
 * each of which still holds headers and an object graph. 10,000 rounds of the otel bench hold
 * about 7 MB of bodies: a few seconds of a saturating burst.
 */
const defaultMaxQueuedRounds = 10_000;
const defaultMaxQueuedBytes = 64 * 1024 * 1024;

/**
 * How long a finished round may wait to be posted with the rounds after it: one message (and one
 * wake-up of the worker) per window rather than per round, as the store does.
 */
const windowMs = 20;

/**
 * Turns the proxy's finished rounds into GenAI spans off its thread: the round joins a batch
 * that is packed (`packRounds`, one copy, buffer transferred) and posted to the export worker
 * every `windowMs`; the worker parses, redacts, builds the spans and exports them with the SDK.
 * What the worker has not traced yet is bounded (`maxQueuedRounds`, `maxQueuedBytes`): past it a round is not
 * traced and counted, so a stalled worker never becomes unbounded memory. A collector that is
 * down is logged once per outage and its lost spans counted; the proxy never waits on it.
 */
export function startProxySpans(settings: OtlpSettings, options: ProxySpanOptions): ProxySpans {
  const maxQueued = options.maxQueuedRounds ?? defaultMaxQueuedRounds;
  const maxBytes = options.maxQueuedBytes ?? defaultMaxQueuedBytes;
  const data: OtelWorkerData = {
    settings,
    redact: options.redact,
    maxDecodedBytes: options.maxDecodedBytes,
    sessionIdleMs: options.sessionIdleMs,
  };
  const worker = new Worker(workerScript('live/otel-worker'), { workerData: data });
  const post = (message: ToOtelWorker, transfer: ArrayBuffer[] = []): void =>
    worker.postMessage(message, transfer);
  /** Rounds and MCP exchanges queued or posted that the worker has not reported traced, and their rounds' bytes. */
  let pending = 0;
  let pendingBytes = 0;
  let exited = false;
  worker.on('message', (message: FromOtelWorker) => {
    if (message.type === 'counts') {
      pending = Math.max(0, pending - message.handled);
      pendingBytes = Math.max(0, pendingBytes - message.handledBytes);
      if (message.exported > 0) options.exported(message.exported);
      if (message.droppedRounds > 0) options.dropped('round', message.droppedRounds);
      if (message.droppedSpans > 0) options.dropped('span', message.droppedSpans);
    } else if (message.type === 'log')
      options.logger[message.level === 'error' ? 'error' : 'info'](message.message);
  });
  worker.on('error', (error) =>
    options.logger.error(`the OpenTelemetry export worker failed: ${error.message}`),
  );
  worker.once('exit', () => (exited = true));
  const queue = new BatchQueue<OtelItem>(
    (items) => {
      if (exited) return;
      const packed = packRounds(
        items,
        (item) => (item.type === 'round' ? item.round : undefined),
        (_, round): OtelItem => ({ type: 'round', round }),
      );
      post({ type: 'items', items: packed.items }, [packed.buffer]);
    },
    256,
    windowMs,
  );
  let closing: Promise<void> | undefined;
  const traced = (item: OtelItem): void => {
    if (closing) return;
    const bytes = item.type === 'round' ? roundBytes(item.round) : 0;
    if (pending >= maxQueued || pendingBytes + bytes > maxBytes) return options.dropped('round', 1);
    pending++;
    pendingBytes += bytes;
    queue.push(item);
  };

  return {
    round: (round) => traced({ type: 'round', round }),
    mcp: (exchange) => traced({ type: 'mcp', exchange: spannedOnly(exchange) }),
    calls(verdicts) {
      if (!closing && verdicts.length > 0) queue.push({ type: 'calls', verdicts });
    },
    sessions(verdicts) {
      if (!closing && verdicts.length > 0) queue.push({ type: 'sessions', verdicts });
    },
    close(graceMs) {
      closing ??= (async () => {
        queue.flush();
        if (!exited) {
          // Messages are handled in order: 'closed' comes after every batch is traced and the SDK shut down.
          const done = new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, graceMs + 1_000);
            const finish = (): void => {
              clearTimeout(timer);
              resolve();
            };
            worker.on('message', (message: FromOtelWorker) => {
              if (message.type === 'closed') finish();
            });
            worker.once('exit', finish);
          });
          post({ type: 'close', graceMs });
          await done;
        }
        await worker.terminate();
      })();
      return closing;
    },
  };
}

/** What of an MCP exchange a span needs: its key and what the server sent while working stay behind. */
function spannedOnly(exchange: McpExchange): SpannedExchange {
  const {
    key: _key,
    canonical: _canonical,
    ordinal: _ordinal,
    during: _during,
    ...spanned
  } = exchange;
  return spanned;
}
