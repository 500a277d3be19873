/**
 * The OpenTelemetry export's worker thread: turns the proxy's captured rounds, MCP exchanges and
 * shadow verdicts into GenAI spans and exports them with the official SDK (batch processor,
 * bounded queue, the OTLP exporter's retries). Parsing — behind the one redaction step, as the
 * store does — span objects and OTLP serialisation all happen here, so the proxy thread only
 * packs and posts. Counts go back in one message per batch handled (and per export settled).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildInteraction } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { createRedactor } from '../cassette/redact.js';
import { roundBytes } from '../cassette/round-size.js';
import { mcpOperation } from '../mcp/mcp-spans.js';
import { startOtlpTracing } from '../otel/otlp-tracing.js';
import { SessionSpans } from '../otel/session-spans.js';
import { adapterById } from '../providers/adapters.js';
import type { FromOtelWorker, OtelItem, OtelWorkerData, ToOtelWorker } from './otel-protocol.js';
import { writeCallVerdicts, writeSessionVerdicts } from './verdict-spans.js';

const port = parentPort;
if (!port) throw new Error('otel-worker must run as a worker thread');
const send = (message: FromOtelWorker): void => port.postMessage(message);
const data = workerData as OtelWorkerData;
const redactor = createRedactor(
  data.redact.headers,
  data.redact.bodyPatterns,
  data.redact.builtinPatterns,
);
const capture = { content: data.settings.captureContent };

const counts = { handled: 0, handledBytes: 0, exported: 0, droppedRounds: 0, droppedSpans: 0 };
let reportTimer: NodeJS.Timeout | undefined;
function report(): void {
  clearTimeout(reportTimer);
  reportTimer = undefined;
  if (counts.handled + counts.exported + counts.droppedRounds + counts.droppedSpans === 0) return;
  send({ type: 'counts', ...counts });
  counts.handled =
    counts.handledBytes =
    counts.exported =
    counts.droppedRounds =
    counts.droppedSpans =
      0;
}
/** Export results settle on their own schedule: gathered for a moment into one report. */
const reportSoon = (): void => {
  reportTimer ??= setTimeout(report, 100);
};

const tracing = startOtlpTracing(data.settings, {
  dropped: (spans) => {
    counts.droppedSpans += spans;
    reportSoon();
  },
  exported: (spans) => {
    counts.exported += spans;
    reportSoon();
  },
  failing: (message) =>
    send(
      message === undefined
        ? { type: 'log', level: 'info', message: 'OTLP export recovered' }
        : {
            type: 'log',
            level: 'error',
            message: `OTLP export failed: ${message}; spans are dropped (counted in calltape_otlp_dropped_total) until the collector answers`,
          },
    ),
});
const spans = new SessionSpans(tracing.tracer, { capture });

function traceRound(round: CapturedRound): void {
  const adapter = adapterById(round.adapterId);
  if (!adapter) return;
  try {
    spans.interaction(
      buildInteraction(adapter, redactor, round, { maxDecodedBytes: data.maxDecodedBytes }),
    );
  } catch (error) {
    counts.droppedRounds++;
    send({
      type: 'log',
      level: 'error',
      message: `OTLP export: cannot trace round ${round.request.id}: ${(error as Error).message}`,
    });
  }
}

function trace(item: OtelItem): void {
  switch (item.type) {
    case 'round':
      traceRound(item.round);
      counts.handled++;
      counts.handledBytes += roundBytes(item.round);
      return;
    case 'mcp':
      spans.mcp(mcpOperation(item.exchange, capture));
      counts.handled++;
      return;
    case 'calls':
      writeCallVerdicts(spans, item.verdicts);
      return;
    case 'sessions':
      writeSessionVerdicts(spans, item.verdicts);
  }
}

const sweep = setInterval(
  () => spans.endIdle(Date.now() - data.sessionIdleMs),
  Math.min(10_000, Math.max(50, Math.floor(data.sessionIdleMs / 2))),
);

port.on('message', (message: ToOtelWorker) => {
  if (message.type === 'items') {
    for (const item of message.items) trace(item);
    report();
    return;
  }
  clearInterval(sweep);
  spans.endAll();
  void tracing.shutdown(message.graceMs).then(() => {
    report();
    send({ type: 'closed' });
  });
});
