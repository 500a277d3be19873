import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
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
import { findAdapter } from '../providers/adapters.js';
import { anthropicMessagesAdapter } from '../providers/anthropic-messages/anthropic-messages-adapter.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import { createCapturedRoute } from './captured-route.js';
import type { ProxyObserver } from './route-types.js';
import type { MockState } from './mocked-route.js';
import { countMiss, maxReasons, type ReplayStats } from './replay-lookup.js';
import { AnsweredCalls, HiddenHistory, MockCounters } from '../mocks/hidden-history.js';
import { loadMocks } from '../mocks/load-mocks.js';
import { CassetteRegistry } from './cassette-registry.js';
import { sessionHeader } from './headers.js';
import { createLogger, type Logger } from './logger.js';
import { createPassThrough } from './pass-through.js';
import { sendError } from './send-error.js';
import { parseSessionRoute, type SessionRoute } from './session-route.js';
import { createUpstream } from './upstream.js';
import { createWebSocketRoute } from './websocket-route.js';
import { createLiveService, type LiveService } from '../live/live-service.js';

export interface ProxyOptions {
  readonly logger?: Logger;
  /** Sees every answered round trip, parsed (for in-process runners such as `calltape test`). */
  readonly observer?: ProxyObserver;
  /** How the user records the cassette from the command they are in, for the hint when replay finds none. */
  readonly recordCommand?: string;
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

/** Starts the proxy described by `config`; resolves once it is listening. */
export async function startProxy(config: Config, options: ProxyOptions = {}): Promise<RunningProxy> {
  const logger = options.logger ?? createLogger(config.logLevel);
  if ((config.mode === 'replay' || config.mode === 'diff') && !existsSync(config.cassette)) {
    throw new CalltapeError('STORE_IO', `${config.cassette}: no such cassette to ${config.mode}`, missingCassetteHint(config.cassette, options.recordCommand ?? 'calltape proxy --mode record (or --mode auto)'));
  }
  // Mock files are checked before anything starts: a bad one is a configuration error, never a call-time surprise.
  const mockState = loadMockState(config);
  // The same redaction the store applies, so keys are computed from what is stored; also keeps log lines clean.
  const redactor = createRedactor(config.redact.headers, config.redact.bodyPatterns);
  // Checked before anything starts too: a non-loopback host without an admin token, a bad policies file.
  let live: LiveService;
  try {
    live = createLiveService(config, logger);
  } catch (error) {
    await mockState?.registry.close();
    throw error;
  }
  // The store worker opens cassettes in every mode but passthrough: it creates, migrates and re-keys them.
  const recorder = startWorkerRecorder(
    config,
    (message) => logger.error(message),
    (diff) => {
      stats.compared++;
      if (diff.lines.length === 0) return;
      if (stats.diffs.length < maxReasons) stats.diffs.push(diff);
      logger.info(`diff ${diff.request} vs recording ${diff.recordingId}:\n  ${diff.lines.join('\n  ')}`);
    },
  );
  const cassettes = new CassetteRegistry(recorder, dirname(config.cassette), logger, effectiveRules(config.match));
  try {
    await cassettes.get(config.cassette, config.mode);
  } catch (error) {
    await recorder.close();
    await mockState?.registry.close();
    await live.close();
    throw error instanceof CalltapeError ? new CalltapeError('STORE_IO', error.message, error.hint) : error;
  }
  const upstreams = { openai: createUpstream(config), anthropic: createUpstream(config, config.anthropicUpstream) };
  const stats: ReplayStats = { hits: 0, misses: 0, recorded: 0, expired: 0, served: new Set(), missReasons: [], missedIn: new Map(), diffs: [], compared: 0, refused: 0 };
  const startedAt = Date.now();
  const capturedRoute = createCapturedRoute({ config, logger, upstreams, redactor, recorder, cassettes, stats, mockState, observer: options.observer, live });
  const websocketRoute = createWebSocketRoute({
    config,
    logger,
    upstream: upstreams.openai,
    redactor,
    recorder,
    cassettes,
    stats,
    observer: options.observer,
    mockState,
    live,
  });
  const errorJson = (message: string): string => JSON.stringify(openAiChatAdapter.errorBody(new CalltapeError('UPSTREAM_UNREACHABLE', message)));
  const passThrough = createPassThrough(config.upstream, config.timeouts.upstreamHeadersMs, errorJson, logger);
  const anthropicErrorJson = (message: string): string => JSON.stringify(anthropicMessagesAdapter.errorBody(new CalltapeError('UPSTREAM_UNREACHABLE', message)));
  const anthropicPassThrough = createPassThrough(config.anthropicUpstream, config.timeouts.upstreamHeadersMs, anthropicErrorJson, logger);
  let inFlight = 0;
  let drained: (() => void) | undefined;

  const server = createServer((request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    route(request, response).catch((error: unknown) => {
      logger.error(`unexpected failure on ${request.method ?? ''} ${redactor.path(request.url ?? '')}: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) sendError(response, openAiChatAdapter, new CalltapeError('UPSTREAM_UNREACHABLE', 'calltape: internal error'));
      else response.destroy();
    });
  });
  // Relayed WebSocket connections are not the HTTP server's to close: tracked here for shutdown.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    if (live.upgrade(request, socket, head)) return;
    const sessionRoute = parseSessionRoute(request.url ?? '/', request.headers[sessionHeader]);
    const mode = 'error' in sessionRoute ? config.mode : (sessionRoute.cassette?.mode ?? config.mode);
    const refuse = (status: number, message: string): void => {
      const body = JSON.stringify(openAiChatAdapter.errorBody(new CalltapeError(status === 404 ? 'CASSETTE_MISS' : 'INVALID_REQUEST', message)));
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    };
    if ('error' in sessionRoute) return refuse(400, sessionRoute.error);
    if (!sessionRoute.path.startsWith('/v1/')) return refuse(400, `calltape: WebSocket upgrades are relayed under /v1/ only; ${redactor.path(sessionRoute.path)} is not`);
    const where = { sessionId: sessionRoute.sessionId, path: sessionRoute.path + sessionRoute.query, cassette: cassettePathFor(sessionRoute), mode };
    // The Responses API's WebSocket mode is captured, recorded and replayed like its HTTP streams.
    if (/\/responses$/.test(sessionRoute.path)) return websocketRoute(request, socket, head, where);
    if (mode === 'replay') {
      // Replay never touches the network; other WebSocket traffic is relayed, not recorded.
      const miss = `calltape: replay cannot answer a WebSocket upgrade to ${redactor.path(sessionRoute.path)}: only /v1/responses WebSocket traffic is recorded`;
      countMiss(stats, cassettePathFor(sessionRoute), miss);
      logger.error(miss);
      return refuse(404, miss);
    }
    request.url = sessionRoute.path + sessionRoute.query;
    delete request.headers[sessionHeader];
    const anthropic = request.headers['x-api-key'] !== undefined || request.headers['anthropic-version'] !== undefined;
    (anthropic ? anthropicPassThrough : passThrough).ws(request, socket, head);
  });
  // Idle agent sockets outlive the client pools' own idle timeouts, so a reused socket is never one we just closed.
  server.keepAliveTimeout = config.timeouts.keepAliveMs;
  server.headersTimeout = config.timeouts.keepAliveMs + 1_000;
  server.requestTimeout = Math.max(300_000, server.headersTimeout + 1_000);

  const cassettePathFor = (sessionRoute: SessionRoute): string => (sessionRoute.cassette ? cassettes.pathOf(sessionRoute.cassette.name) : config.cassette);

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (live.handle(request, response)) return;
    const sessionRoute = parseSessionRoute(url, request.headers[sessionHeader]);
    if ('error' in sessionRoute) {
      sendError(response, openAiChatAdapter, new CalltapeError('INVALID_REQUEST', sessionRoute.error));
      return;
    }
    const adapter = findAdapter(method, sessionRoute.path);
    const mode = sessionRoute.cassette?.mode ?? config.mode;
    if (!adapter && mode === 'replay') {
      // Replay never touches the network: a route calltape does not record cannot be answered.
      const miss = new CalltapeError('CASSETTE_MISS', `calltape: replay answers only recorded routes (POST /v1/chat/completions, POST /v1/messages); ${method} ${redactor.path(sessionRoute.path)} is not recorded`);
      countMiss(stats, cassettePathFor(sessionRoute), miss.message);
      sendError(response, openAiChatAdapter, miss);
      return;
    }
    if (!adapter) {
      request.url = sessionRoute.path + sessionRoute.query;
      delete request.headers[sessionHeader];
      // Anthropic's SDK always sends these headers; OpenAI-compatible clients never do.
      const anthropic = request.headers['x-api-key'] !== undefined || request.headers['anthropic-version'] !== undefined;
      (anthropic ? anthropicPassThrough : passThrough).web(request, response);
      return;
    }
    await capturedRoute(adapter, request, response, {
      sessionId: sessionRoute.sessionId,
      path: sessionRoute.path + sessionRoute.query,
      cassette: cassettePathFor(sessionRoute),
      mode,
    });
  }

  /** Everything that would keep the process alive: cassettes, the store worker, mock modules, pools. */
  const release = async (): Promise<void> => {
    // Shadow scoring first: what is queued is scored and stored before the process may exit.
    await live.close();
    cassettes.close();
    await recorder.close();
    await mockState?.registry.close();
    passThrough.close();
    anthropicPassThrough.close();
    await Promise.all([upstreams.openai.pool.destroy(), upstreams.anthropic.pool.destroy()]);
  };

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Nothing may keep the process alive after a failed start (the store worker would).
    await release();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  live.listening(`${url}/v1`);

  let closing: Promise<void> | undefined;
  let usage: CassetteUsage[] = [];
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    get inFlight() {
      return inFlight;
    },
    stats,
    unusedRecordings: () => cassettes.unusedRecordings(stats.served),
    cassetteUsage: () => usage,
    close() {
      closing ??= (async () => {
        server.close();
        server.closeIdleConnections();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, config.timeouts.shutdownGraceMs).unref();
          });
        }
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        const endedAt = Date.now();
        usage = cassettes.usage(stats.served).map(({ path, mode, servedIds }) => ({ cassette: resolve(path), mode, startedAt, endedAt, servedIds, missed: stats.missedIn.get(path) ?? 0 }));
        await release();
      })();
      return closing;
    },
  };
}

/** The mock sets of `config.mocks`, loaded and checked; undefined when no mock file is configured and strictTools is off. */
function loadMockState(config: Config): MockState | undefined {
  if (config.mocks.files.length === 0 && !config.mocks.strictTools) return undefined;
  const registry = loadMocks(config.mocks.files, process.cwd());
  const defaultSets = config.mocks.active ?? [...registry.sets.keys()];
  try {
    // The default selection is checked now: unknown names or two sets mocking one tool fail the start.
    registry.select(defaultSets);
  } catch (error) {
    void registry.close();
    throw new CalltapeError('CONFIG_INVALID', `mocks.active: ${(error as Error).message}`);
  }
  if (config.mocks.mode === 'override' && config.mocks.strictTools) {
    void registry.close();
    throw new CalltapeError('CONFIG_INVALID', 'mocks.strictTools: needs mocks.mode "intercept" (in override mode the agent runs every tool itself, so nothing can be refused before it runs)');
  }
  return { registry, defaultSets, history: new HiddenHistory(), counters: new MockCounters(), answered: new AnsweredCalls() };
}
