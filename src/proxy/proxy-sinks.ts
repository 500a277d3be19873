import type { Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import { combineExtensions } from '../live/admin-routes.js';
import { createLiveService, type LiveService } from '../live/live-service.js';
import type { Logger } from '../logger.js';
import { mcpReportRoute } from './mcp-report-route.js';
import type { MockState } from './mock-state.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import type { AdminExtension } from '../live/admin-routes.js';

/**
 * The live side every answered round is told of (metrics, feed, shadow scoring, OTel spans),
 * with the admin routes: checked before anything starts (a non-loopback host without an admin
 * token, a bad policies file). On failure the mock modules already loaded are closed.
 */
export async function startSinks(
  config: Config,
  logger: Logger,
  options: {
    readonly otlp?: OtlpSettings | undefined;
    readonly adminExtension?: AdminExtension | undefined;
  },
  redactor: Redactor,
  mockState: MockState | undefined,
): Promise<LiveService> {
  let live: LiveService;
  try {
    // The OTel SDK is loaded only when export is on: it costs every start otherwise.
    live = await createLiveService(
      config,
      logger,
      options.otlp && {
        settings: options.otlp,
        start: (await import('../live/proxy-spans.js')).startProxySpans,
      },
      combineExtensions(
        mcpReportRoute({
          redactor,
          maxBodyBytes: config.limits.maxBodyBytes,
          accept: (calls) => live.reportedMcp(calls),
        }),
        ...(options.adminExtension ? [options.adminExtension] : []),
      ),
    );
  } catch (error) {
    await mockState?.registry.close();
    throw error;
  }
  return live;
}
