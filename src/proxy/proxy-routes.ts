import type { Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import type { LiveService } from '../live/live-service.js';
import type { Logger } from '../logger.js';
import type { McpExchange } from '../mcp/mcp-exchange.js';
import type { McpServerMockSet } from '../mcp/mcp-mock-types.js';
import { errorShapeOfUpstream } from '../providers/adapters.js';
import type { CapturePipeline } from './capture-pipeline.js';
import { CapturedRoute } from './captured-route.js';
import { HttpRouter } from './http-router.js';
import { LazyMcpRoute } from './lazy-mcp-route.js';
import { LazyWebSocketRoute } from './lazy-websocket-route.js';
import type { MockState } from './mock-state.js';
import { createPassThroughs, unreachableBody, type PassThroughs } from './pass-through.js';
import type { ProxyStores } from './proxy-stores.js';
import type { ReplayStats } from './replay-lookup.js';
import { noteDiff } from './run-stats.js';
import type { SessionRoute } from './session-route.js';
import { createSignedPassThrough } from './signed-pass-through.js';
import { UpgradeRoute } from './upgrade-route.js';
import { createUpstreams, type Upstreams } from './upstreams.js';

/** Where requests go on: the upstream pools of captured routes and the pass-throughs of the rest. */
export interface ProxyUpstreams {
  readonly upstreams: Upstreams;
  readonly passThroughs: PassThroughs;
}

/** The upstreams of every wire, by name, each created on first use. */
export function openUpstreams(config: Config, logger: Logger): ProxyUpstreams {
  const upstreams = createUpstreams(config);
  return {
    upstreams,
    passThroughs: createPassThroughs(
      config,
      {
        headersMs: config.timeouts.upstreamHeadersMs,
        webSocketIdleMs: config.timeouts.webSocketIdleMs,
      },
      (upstream) => unreachableBody(errorShapeOfUpstream(upstream)),
      logger,
      createSignedPassThrough({
        upstream: () => upstreams.for({ upstream: 'bedrock' }),
        adapter: errorShapeOfUpstream('bedrock'),
        config,
        logger,
      }),
    ),
  };
}

/** What the routes are built from: the assembled stores, sinks and upstreams. */
export interface RouteParts {
  readonly config: Config;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly pipeline: CapturePipeline;
  readonly stats: ReplayStats;
  readonly live: LiveService;
  readonly stores: ProxyStores;
  readonly wires: ProxyUpstreams;
  readonly mockState: MockState | undefined;
  readonly mcpMocks: ReadonlyMap<string, McpServerMockSet>;
  /** The origin served, once listening (requests arrive only after). */
  origin(): string;
}

/** The routes a request or an upgrade is handled by. */
export interface ProxyRoutes {
  readonly router: HttpRouter;
  readonly upgradeRoute: UpgradeRoute;
  readonly mcpRoute: LazyMcpRoute;
}

/** Builds the HTTP router, the upgrade route and the MCP route over the assembled parts. */
export function createRoutes(parts: RouteParts): ProxyRoutes {
  const { config, logger, redactor, pipeline, stats, live, mockState } = parts;
  const { cassettes } = parts.stores;
  const { upstreams, passThroughs } = parts.wires;
  const cassetteFor = (route: SessionRoute): string =>
    route.cassette ? cassettes.pathOf(route.cassette.name) : config.cassette;
  const mcpRoute = new LazyMcpRoute({
    config,
    logger,
    redactor,
    pipeline,
    mocks: parts.mcpMocks,
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
    origin: () => parts.origin(),
  });
  return { router, upgradeRoute, mcpRoute };
}
