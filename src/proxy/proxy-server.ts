import type { CodePolicy } from '../user-code/code-policy.js';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import { effectiveRules } from '../cassette/match-key.js';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { createRedactor } from '../cassette/redact.js';
import { startWorkerRecorder } from '../cassette/worker-recorder.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { combineExtensions, type AdminExtension } from '../live/admin-routes.js';
import { createLiveService, type LiveService } from '../live/live-service.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import { errorShapeOfUpstream } from '../providers/adapters.js';
import { CapturePipeline } from './capture-pipeline.js';
import { CapturedRoute } from './captured-route.js';
import { CassetteRegistry } from './cassette-registry.js';
import { ConnectionTracker } from './connection-tracker.js';
import { HttpRouter } from './http-router.js';
import { LazyMcpRoute } from './lazy-mcp-route.js';
import { mcpReportRoute } from './mcp-report-route.js';
import type { McpExchange } from '../mcp/mcp-exchange.js';
import type { McpServerMockSet } from '../mcp/mcp-mock-types.js';
import { createLogger, type Logger } from '../logger.js';
import { loadMockState } from './mock-state.js';
import { createPassThroughs, unreachableBody } from './pass-through.js';
import { emptyStats, noteDiff } from './run-stats.js';
import type { ReplayStats } from './replay-lookup.js';
import type { ProxyObserver } from './route-types.js';
import type { SessionRoute } from './session-route.js';
import { UpgradeRoute } from './upgrade-route.js';
import { createUpstreams } from './upstreams.js';
import { LazyWebSocketRoute } from './lazy-websocket-route.js';
import { createGuardedServer, listen } from './guarded-server.js';

export interface ProxyOptions {
  readonly logger?: Logger;
  /** Sees every answered round trip, parsed (for in-process runners such as `calltape test`). */
  readonly observer?: ProxyObserver;
  /** How the user records the cassette from the command they are in, for the hint when replay finds none. */
  readonly recordCommand?: string;
  /** Export every round trip and shadow verdict as OpenTelemetry GenAI spans (`--otlp-endpoint`). */
  readonly otlp?: OtlpSettings | undefined;
  /** What mock modules may do (`--no-code`, `--allow-code-outside-project`); default: run, inside the project only. */
  readonly code?: CodePolicy;
  /** A page served behind the admin checks (`calltape proxy` serves the rating page): made above the proxy, which knows no runs or ratings. */
  readonly adminExtension?: AdminExtension;
}

export interface RunningProxy {
  /** Origin the proxy serves, e.g. `http://127.0.0.1:4545`. */
  readonly url: string;
  /** What agents set as `OPENAI_BASE_URL`: `${url}/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Requests being answered right now. */
  readonly inFlight: number;
  /** Hits, misses and recordings so far. */
  readonly stats: ReplayStats;
  /** Ids of recordings in the cassette this run never served (replay and auto modes). */
  unusedRecordings(): string[];
  /** After `close()`: what this run did with each cassette it opened (the caller notes it in the runs database). */
  cassetteUsage(): readonly CassetteUsage[];
  /**
   * Stops accepting, lets in-flight requests finish (up to `timeouts.shutdownGraceMs`, then cuts
   * them), writes everything captured and closes the store.
   */
  close(): Promise<void>;
}

/** Starts the proxy described by `config` (LLM routes, `/mcp/<name>`, admin); resolves once it is listening. */
export async function startProxy(
  config: Config,
  options: ProxyOptions = {},
): Promise<RunningProxy> {
  const logger = options.logger ?? createLogger(config.logLevel);
  if ((config.mode === 'replay' || config.mode === 'diff') && !existsSync(config.cassette)) {
    throw new CalltapeError(
      'STORE_IO',
      `${config.cassette}: no such cassette to ${config.mode}`,
      missingCassetteHint(
        config.cassette,
        options.recordCommand ?? 'calltape proxy --mode record (or --mode auto)',
      ),
    );
  }
  // Mock files are checked before anything starts: a bad one is a configuration error, never a call-time surprise.
  // Mock loaders (and the scoring engine mock answers are chosen with) load only when mocks are configured.
  const mcpMocks =
    config.mocks.files.length > 0
      ? (await import('../mcp/load-mcp-mocks.js')).loadAllMcpMocks(
          config.mocks.files,
          process.cwd(),
        )
      : new Map<string, McpServerMockSet>();
  const mockState = await loadMockState(config, options.code);
  // The same redaction the store applies, so keys are computed from what is stored; also keeps log lines clean.
  const redactor = createRedactor(
    config.redact.headers,
    config.redact.bodyPatterns,
    config.redact.builtinPatterns,
  );
  // Checked before anything starts too: a non-loopback host without an admin token, a bad policies file.
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
  const stats = emptyStats();
  // The store worker creates, migrates and re-keys the cassettes it writes, and compares for diff;
  // it starts at its first use, so passthrough and replay run without it.
  const recorder = startWorkerRecorder(config, {
    error: (message) => logger.error(message),
    diff: (diff) => noteDiff(stats, diff, logger),
    dropped: () => live.storeDropped(),
    rekeyed: (cassette, count) =>
      logger.info(`${cassette}: re-keyed ${count} recording(s) for the current match rules`),
  });
  const cassettes = new CassetteRegistry(
    recorder,
    dirname(config.cassette),
    logger,
    effectiveRules(config.match),
    {
      pinned: config.cassette,
      reservedPaths: [config.shadow.database],
      maxOpen: config.cassettes.maxOpen,
    },
  );
  try {
    await cassettes.get(config.cassette, config.mode);
  } catch (error) {
    await recorder.close();
    await mockState?.registry.close();
    await live.close();
    throw error instanceof CalltapeError
      ? new CalltapeError('STORE_IO', error.message, error.hint)
      : error;
  }
  const upstreams = createUpstreams(config);
  const startedAt = Date.now();
  const pipeline = new CapturePipeline({
    config,
    logger,
    redactor,
    recorder,
    stats,
    observer: options.observer,
    live,
  });
  const passThroughs = createPassThroughs(
    config,
    {
      headersMs: config.timeouts.upstreamHeadersMs,
      webSocketIdleMs: config.timeouts.webSocketIdleMs,
    },
    (upstream) => unreachableBody(errorShapeOfUpstream(upstream)),
    logger,
  );
  const cassetteFor = (route: SessionRoute): string =>
    route.cassette ? cassettes.pathOf(route.cassette.name) : config.cassette;
  const mcpRoute = new LazyMcpRoute({
    config,
    logger,
    redactor,
    pipeline,
    mocks: mcpMocks,
    noteDiff: (diff) => noteDiff(stats, diff, logger),
    ...(live.wantsMcp ? { onExchange: (exchange: McpExchange) => live.mcp(exchange) } : {}),
  });
  const capturedRoute = new CapturedRoute({
    config,
    logger,
    upstreams,
    cassettes,
    pipeline,
    mockState,
  });
  const websocketRoute = new LazyWebSocketRoute({
    config,
    logger,
    upstream: upstreams.openai,
    cassettes,
    pipeline,
    mockState,
  });
  const upgradeRoute = new UpgradeRoute({
    mode: config.mode,
    allowRequestOverride: config.cassettes.allowRequestOverride,
    redactor,
    pipeline,
    websocketRoute,
    passThroughs,
    cassetteFor,
  });
  /** The origin served, once listening (requests arrive only after). */
  let origin = '';
  const router = new HttpRouter({
    mode: config.mode,
    allowRequestOverride: config.cassettes.allowRequestOverride,
    logger,
    redactor,
    pipeline,
    capturedRoute,
    mcpRoute,
    passThroughs,
    admin: live,
    cassetteFor,
    origin: () => origin,
  });
  const connections = new ConnectionTracker();

  const server = createGuardedServer({
    config,
    logger,
    redactor,
    connections,
    listenerFailed: (kind) => live.listenerFailed(kind),
    onRequest: (request, response) => router.handle(request, response),
    onUpgrade: (request, socket, head) => {
      if (!live.upgrade(request, socket, head)) upgradeRoute.handle(request, socket, head);
    },
  });

  /** Everything that would keep the process alive: cassettes, the store worker, mock modules, pools. */
  const release = async (): Promise<void> => {
    // Shadow scoring first: what is queued is scored and stored before the process may exit.
    await live.close();
    cassettes.close();
    await recorder.close();
    await mockState?.registry.close();
    passThroughs.close();
    await Promise.all([upstreams.destroy(), mcpRoute.close()]);
  };

  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    // Nothing may keep the process alive after a failed start (the store worker would).
    await release();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  origin = `http://${host}:${port}`;
  const url = origin;
  live.listening(`${url}/v1`);

  let closing: Promise<void> | undefined;
  let usage: CassetteUsage[] = [];
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    get inFlight() {
      return connections.inFlight;
    },
    stats,
    unusedRecordings: () => cassettes.unusedRecordings(stats.served),
    cassetteUsage: () => usage,
    close() {
      closing ??= (async () => {
        server.close();
        server.closeIdleConnections();
        await connections.drain(config.timeouts.shutdownGraceMs);
        server.closeAllConnections();
        connections.destroyUpgraded();
        const endedAt = Date.now();
        usage = cassettes.usage(stats.served).map(({ path, mode, servedIds }) => ({
          cassette: resolve(path),
          mode,
          startedAt,
          endedAt,
          servedIds,
          missed: stats.missedIn.get(path) ?? 0,
        }));
        await release();
      })();
      return closing;
    },
  };
}
