import type { CodePolicy } from '../user-code/code-policy.js';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { createRedactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { AdminExtension } from '../live/admin-routes.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import { CapturePipeline } from './capture-pipeline.js';
import { ConnectionTracker } from './connection-tracker.js';
import type { McpServerMockSet } from '../mcp/mcp-mock-types.js';
import { createLogger, type Logger } from '../logger.js';
import { loadMockState } from './mock-state.js';
import { createRoutes, openUpstreams } from './proxy-routes.js';
import { startSinks } from './proxy-sinks.js';
import { openStores, type ProxyStores } from './proxy-stores.js';
import { emptyStats } from './run-stats.js';
import type { ReplayStats } from './replay-lookup.js';
import type { ProxyObserver } from './route-types.js';
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
  const live = await startSinks(config, logger, options, redactor, mockState);
  const stats = emptyStats();
  let stores: ProxyStores;
  try {
    stores = await openStores(config, logger, live, stats);
  } catch (error) {
    await mockState?.registry.close();
    await live.close();
    throw error;
  }
  const { recorder, cassettes } = stores;
  const wires = openUpstreams(config, logger);
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
  /** The origin served, once listening (requests arrive only after). */
  let origin = '';
  const { router, upgradeRoute, mcpRoute } = createRoutes({
    config,
    logger,
    redactor,
    pipeline,
    stats,
    live,
    stores,
    wires,
    mockState,
    mcpMocks,
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
    wires.passThroughs.close();
    await Promise.all([wires.upstreams.destroy(), mcpRoute.close()]);
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
        server.h2c.close();
        await connections.drain(config.timeouts.shutdownGraceMs);
        server.closeAllConnections();
        server.h2c.destroy();
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
