import { createLogger } from '../../logger.js';
import type { OtlpSettings } from '../../otel/otlp-settings.js';

/**
 * Runs a suite with its cases exported as OpenTelemetry spans when `--otlp-endpoint` (or the
 * OTel variables) ask for it; the spans are sent once the run is over, for at most
 * `runExportBoundMs`, and a line says how many. Spans a collector did not take are a warning:
 * the run's outcome, exit code included, stays its own.
 */
export async function withRunSpans<T>(
  otlp: OtlpSettings | undefined,
  agentName: string,
  run: (spans: import('../../otel/run-spans.js').RunSpans | undefined) => Promise<T>,
): Promise<T> {
  if (!otlp) return run(undefined);
  // Loaded only when export is on: the OTel SDK costs every start otherwise.
  const { RunSpans, collectorName, lostSpansWarning } = await import('../../otel/run-spans.js');
  const spans = new RunSpans({ kind: 'collector', settings: otlp }, { agentName });
  try {
    return await run(spans);
  } finally {
    const tally = await spans.finish();
    process.stdout.write(`OpenTelemetry: ${tally.spans} span(s) sent to ${collectorName(otlp)}\n`);
    const warning = lostSpansWarning(tally, otlp);
    if (warning !== undefined) createLogger('error').warn(warning);
  }
}
