import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redactor } from '../cassette/redact.js';
import type { ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { AdminRoutes } from '../live/admin-routes.js';
import { capturedRouteNames, resolveWire } from '../providers/adapters.js';
import { splitPathQuery } from '../providers/wire-route.js';
import { errorShapeFor } from './guard/error-shape-for.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import type { CapturePipeline } from './capture-pipeline.js';
import type { CapturedRoute } from './captured-route.js';
import type { McpRoute } from './mcp-route.js';
import { sessionHeader } from './headers.js';
import type { Logger } from '../logger.js';
import type { PassThroughs } from './pass-through.js';
import { signedForBedrock } from './pass-through-upstream.js';
import { nearMissHint, routePath } from './route-path.js';
import { sendError } from './send-error.js';
import { parseSessionRoute, type SessionRoute } from './session-route.js';
import { routeRefusal } from './guard/request-target.js';

export interface HttpRouterOptions {
  readonly mode: ProxyMode;
  /** `cassettes.allowRequestOverride`: whether a request may pick its cassette and mode with `/c/<name>:<mode>/`. */
  readonly allowRequestOverride: boolean;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly pipeline: CapturePipeline;
  readonly capturedRoute: CapturedRoute;
  /** `/mcp/<name>`: the MCP servers calltape fronts over Streamable HTTP. */
  readonly mcpRoute: Pick<McpRoute, 'handle'>;
  readonly passThroughs: PassThroughs;
  /** The dashboard, feed and metrics routes. */
  readonly admin: Pick<AdminRoutes, 'handle'>;
  /** The cassette file a request's `/c/<name>/` prefix (or its absence) stands for. */
  cassetteFor(route: SessionRoute): string;
  /** The origin the proxy serves, for base-URL hints (known once listening). */
  origin(): string;
}

/** Distinct near-miss paths warned about; an agent with a wrong base URL sends every request to one. */
const maxWarned = 100;

/**
 * Routes an HTTP request: `/healthz`, the admin routes, `/mcp/<name>` (MCP servers), routes an
 * adapter captures (through the capture pipeline), and everything else passed through — except in replay, which answers only
 * what it recorded. Paths off by a `/v1` are warned about once each.
 */
export class HttpRouter {
  private readonly warned = new Set<string>();

  constructor(private readonly options: HttpRouterOptions) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { redactor } = this.options;
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (this.options.admin.handle(request, response)) return;
    const route = parseSessionRoute(url, request.headers[sessionHeader]);
    if ('error' in route)
      return sendError(
        response,
        openAiChatAdapter,
        new CalltapeError('INVALID_REQUEST', route.error),
      );
    const refusal = routeRefusal(route, this.options.allowRequestOverride);
    if (refusal)
      return sendError(response, openAiChatAdapter, new CalltapeError('INVALID_REQUEST', refusal));
    const mode = route.cassette?.mode ?? this.options.mode;
    if (route.path.startsWith('/mcp/'))
      return this.options.mcpRoute.handle(request, response, {
        sessionId: route.sessionId,
        path: route.path + route.query,
        cassette: this.options.cassetteFor(route),
        mode,
      });
    const routed = routePath(method, route.path);
    const nearMiss =
      routed.nearMiss &&
      nearMissHint(routed.nearMiss, method, redactor.path(route.path), this.options.origin());
    if (nearMiss !== undefined) this.warnOnce(route.path, nearMiss);
    const wire = resolveWire(method, routed.path, splitPathQuery(route.query).query);
    const where = {
      sessionId: route.sessionId,
      // The route's path: what the request is stored, keyed and forwarded under.
      path: (wire?.route.path ?? routed.path) + route.query,
      cassette: this.options.cassetteFor(route),
      mode,
      nearMiss,
    };
    if (wire) return this.options.capturedRoute.handle(wire, request, response, where);
    if (mode === 'replay') {
      // Replay never touches the network: a route calltape does not record cannot be answered.
      const miss = new CalltapeError(
        'CASSETTE_MISS',
        nearMiss ??
          `calltape: replay answers only recorded routes (POST ${capturedRouteNames()}); ${method} ${redactor.path(route.path)} is not recorded`,
      );
      this.options.pipeline.missed(where, miss);
      // Bedrock's SDK reads only its own error shape; the other wires' misses keep OpenAI's.
      const shape = signedForBedrock(request.headers.authorization)
        ? errorShapeFor(request)
        : openAiChatAdapter;
      return sendError(response, shape, miss);
    }
    const passThrough = this.options.passThroughs.for(request, routed.path);
    if (passThrough instanceof CalltapeError) {
      this.options.logger.error(passThrough.message);
      return sendError(response, errorShapeFor(request), passThrough);
    }
    request.url = route.path + route.query;
    delete request.headers[sessionHeader];
    passThrough.web(request, response);
  }

  private warnOnce(path: string, message: string): void {
    if (this.warned.has(path) || this.warned.size >= maxWarned) return;
    this.warned.add(path);
    this.options.logger.warn(message);
  }
}
