import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import { closeWhenIdle } from './guard/close-when-idle.js';
import { sentByAnthropicClient } from './guard/error-shape-for.js';
import { printableUrl } from '../cassette/printable-url.js';
import type { Config } from '../config/config.js';
import type { UpstreamName } from '../providers/wire-route.js';
import { passThroughTarget, signedForBedrock } from './pass-through-upstream.js';
import {
  configuredUpstream,
  maxVertexPools,
  noAzureUpstream,
  noVertexLocation,
  vertexOrigin,
} from './upstreams.js';

export interface PassThrough {
  /** Forwards the request untouched (its `url` already stripped of any session prefix). */
  web(request: IncomingMessage, response: ServerResponse): void;
  /** Relays a WebSocket upgrade and then its frames both ways, untouched and in order. */
  ws(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * Plain pass-through for routes calltape does not capture (models, embeddings, files…) and for
 * WebSocket upgrades, through http-proxy-3 with a keep-alive agent. Bodies and frames stream both
 * ways unread.
 */
/** How long the pass-through waits: for upstream response headers, and on a relayed WebSocket with no traffic either way. */
export interface PassThroughTimeouts {
  readonly headersMs: number;
  readonly webSocketIdleMs: number;
}

export function createPassThrough(
  upstream: string,
  timeouts: PassThroughTimeouts,
  errorBody: (message: string) => string,
  logger: Logger,
): PassThrough {
  const agent = upstream.startsWith('https:')
    ? new HttpsAgent({ keepAlive: true })
    : new HttpAgent({ keepAlive: true });
  const proxy = createProxyServer({
    target: upstream,
    changeOrigin: true,
    xfwd: false,
    agent,
    proxyTimeout: timeouts.headersMs,
  });
  proxy.on('error', (error, _request, response) => {
    logger.error(`pass-through to ${printableUrl(upstream)} failed: ${error.message}`);
    if (!('writeHead' in response)) return void response.destroy();
    if (response.headersSent) return void response.destroy(error);
    const body = errorBody(
      `calltape: could not reach the upstream ${printableUrl(upstream)} (${(error as NodeJS.ErrnoException).code ?? error.message})`,
    );
    response
      .writeHead(502, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
  return {
    web: (request, response) => void proxy.web(request, response),
    ws: (request, socket, head) => {
      // http-proxy-3 takes the socket over synchronously here (clearing its timeout); closing it on idle also closes the upstream side.
      void proxy.ws(request, socket, head);
      closeWhenIdle(socket, timeouts.webSocketIdleMs);
    },
    close: () => {
      proxy.close();
      agent.destroy();
    },
  };
}

/** The pass-throughs to the configured upstreams, chosen per request by its path (and who sent it). */
export interface PassThroughs {
  /**
   * The pass-through for a request whose path (prefixes and query removed) is `path`, or the
   * error that says which upstream to configure (Azure has none by default).
   */
  for(request: IncomingMessage, path: string): PassThrough | CalltapeError;
  close(): void;
}

export function createPassThroughs(
  config: Config,
  timeouts: PassThroughTimeouts,
  errorBody: (upstream: UpstreamName) => (message: string) => string,
  logger: Logger,
  /** Where requests signed for Bedrock go: re-signed for its endpoint (`signed-pass-through.ts`). */
  bedrock: PassThrough,
): PassThroughs {
  const named = new Map<UpstreamName, PassThrough>();
  const regional = new Map<string, PassThrough>();
  const create = (url: string, upstream: UpstreamName): PassThrough =>
    createPassThrough(url, timeouts, errorBody(upstream), logger);
  return {
    for(request, path) {
      const target = passThroughTarget(
        path,
        sentByAnthropicClient(request.headers),
        signedForBedrock(request.headers.authorization),
      );
      if (target.upstream === 'bedrock') return bedrock;
      const existing = named.get(target.upstream) ?? regional.get(target.location ?? '');
      if (existing) return existing;
      const url = configuredUpstream(config, target.upstream);
      if (url !== undefined) {
        const passThrough = create(url, target.upstream);
        named.set(target.upstream, passThrough);
        return passThrough;
      }
      if (target.upstream !== 'vertex') return noAzureUpstream();
      const origin = vertexOrigin(target.location);
      if (origin === undefined || target.location === undefined)
        return noVertexLocation(target.location);
      if (regional.size >= maxVertexPools) {
        const [oldest, passThrough] = regional.entries().next().value as [string, PassThrough];
        regional.delete(oldest);
        passThrough.close();
      }
      const passThrough = create(origin, 'vertex');
      regional.set(target.location, passThrough);
      return passThrough;
    },
    close: () => {
      for (const passThrough of [...named.values(), ...regional.values(), bedrock])
        passThrough.close();
      named.clear();
      regional.clear();
    },
  };
}

/** A pass-through failure's body in a wire's error shape. */
export function unreachableBody(adapter: ProviderAdapter): (message: string) => string {
  return (message) =>
    JSON.stringify(adapter.errorBody(new CalltapeError('UPSTREAM_UNREACHABLE', message)));
}
