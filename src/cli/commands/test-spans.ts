import { createLogger } from '../../logger.js';
import type { OtlpSettings } from '../../otel/otlp-settings.js';

/**
 * Runs a suite with its cases exported as OpenTelemetry spans when `--otlp-endpoint` (or the
 * OTel variables) ask for it; the spans are sent once the run is over, and a line says how many.
 */
export async function withRunSpans<T>(
  otlp: OtlpSettings | undefined,
  agentName: string,
  run: (spans: import('../../otel/run-spans.js').RunSpans | undefined) => Promise<T>,
): Promise<T> {
  if (!otlp) return run(undefined);
  // Loaded only when export is on: the OTel SDK costs every start otherwise.
  const { RunSpans } = await import('../../otel/run-spans.js');
  const spans = new RunSpans(
    { kind: 'collector', settings: otlp },
    { agentName, logger: createLogger('error') },
  );
  try {
    return await run(spans);
  } finally {
    const tally = await spans.finish();
    process.stdout.write(
      `OpenTelemetry: ${tally.spans} span(s) sent to ${otlp.url ?? 'OTEL_EXPORTER_OTLP_ENDPOINT'}${tally.dropped > 0 ? `, ${tally.dropped} lost (the collector did not accept them)` : ''}\n`,
    );
  }
}
