import type { Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { OtlpSettings } from './otlp-settings.js';
import { packageVersion } from '../package-root.js';
import { printableText } from '../cassette/printable-url.js';

/** What an export pipeline reports about itself: spans sent, spans lost, and whether the collector answers. */
export interface ExportCounters {
  /** Spans in batches the collector accepted. */
  readonly exported: number;
  /** Spans lost: the queue was full, or their batch failed after the exporter's retries. */
  readonly dropped: number;
  /** Every span ended so far: after a shutdown, `ended - exported` is what never reached the collector (lost, or still in flight when the grace ran out). */
  readonly ended: number;
}

/** The tracer to write spans with, and the pipeline behind it. */
export interface OtlpTracing {
  readonly tracer: Tracer;
  counters(): ExportCounters;
  /** Sends what is queued, waiting at most `graceMs`; then stops. Never throws. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * Most ended spans waiting for export; beyond it new spans are dropped (and counted). A proxy
 * round is three spans (session, chat, tool), so this holds about 5,000 rounds: a few seconds of
 * a saturating burst. An ended span of a round without captured content holds about 1 KB of heap
 * (measured), so the queue stays near 16 MB; captured content adds its text.
 */
const maxQueueSize = 16_384;
/**
 * Spans per OTLP request. The processor sends one request at a time, so the collector's round
 * trip caps what it can drain: larger batches drain a burst in fewer trips. At most 8 batches fit
 * the queue, so even the final flush on shutdown stays under the exporter's 30 concurrent requests.
 */
const maxExportBatchSize = 2048;

/**
 * An OTLP/HTTP (protobuf or JSON) export pipeline on the official SDK: a batch processor with a bounded
 * queue in front of the OTLP exporter (which retries with backoff), all off the caller's path —
 * `span.end()` only appends to the queue. A collector that is down or slow costs spans, counted
 * and logged once per outage, never a stall or an exception.
 */
export function startOtlpTracing(
  settings: Pick<OtlpSettings, 'url' | 'protocol'>,
  events: {
    readonly dropped?: (spans: number) => void;
    readonly exported?: (spans: number) => void;
    readonly failing?: (message: string | undefined) => void;
  } = {},
  exporter?: SpanExporter,
  exportTimeoutMs = 10_000,
): OtlpTracing {
  // The exporter's deadline per batch, its retries with backoff included: no retry is scheduled past it.
  const config = {
    ...(settings.url === undefined ? {} : { url: settings.url }),
    timeoutMillis: exportTimeoutMs,
  };
  const inner =
    exporter ??
    (settings.protocol === 'http/json'
      ? new OtlpJsonExporter(config)
      : new OtlpProtobufExporter(config));
  const counts = { exported: 0, dropped: 0, queued: 0, ended: 0 };
  let failing = false;
  const drop = (spans: number): void => {
    counts.dropped += spans;
    events.dropped?.(spans);
  };
  const counting: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
      counts.queued -= spans.length;
      inner.export(spans, (result) => {
        if (result.code === ExportResultCode.SUCCESS) {
          counts.exported += spans.length;
          events.exported?.(spans.length);
          if (failing) events.failing?.(undefined);
          failing = false;
        } else {
          drop(spans.length);
          if (!failing)
            events.failing?.(
              // The exporter's message may quote the collector's URL, user-info included.
              printableText(result.error?.message ?? 'the collector did not accept the batch'),
            );
          failing = true;
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush?.() ?? Promise.resolve() } : {}),
  };
  const batch = exporter
    ? new SimpleSpanProcessor(counting)
    : new BatchSpanProcessor(counting, {
        maxQueueSize,
        maxExportBatchSize,
        scheduledDelayMillis: 1000,
      });
  // The batch processor drops silently when full; counted here, where a span joins the queue.
  const bounded: SpanProcessor = {
    onStart: (span, context) => batch.onStart(span, context),
    onEnd(span) {
      counts.ended++;
      if (counts.queued >= maxQueueSize) return drop(1);
      counts.queued++;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env['OTEL_SERVICE_NAME'] ?? 'calltape',
      'service.version': packageVersion,
    }),
    spanProcessors: [bounded],
  });
  return {
    tracer: provider.getTracer('calltape', packageVersion),
    counters: () => ({ exported: counts.exported, dropped: counts.dropped, ended: counts.ended }),
    async shutdown(graceMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([provider.shutdown().catch(() => undefined), late]);
      clearTimeout(timer);
    },
  };
}
