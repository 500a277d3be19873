import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timeOrderedId } from './time-ordered-id.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { createRedactor } from '../cassette/redact.js';
import { startWorkerRecorder } from '../cassette/worker-recorder.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { findAdapter } from '../providers/adapters.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { forwardUpstream } from './forward-upstream.js';
import { sessionHeader, upstreamRequestHeaders } from './headers.js';
import { createLogger, type Logger } from './logger.js';
import { createPassThrough } from './pass-through.js';
import { readRequestBody } from './read-request-body.js';
import { parseSessionRoute } from './session-route.js';
import { createUpstream } from './upstream.js';

export interface ProxyOptions {
  readonly logger?: Logger;
}

export interface RunningProxy {
  /** Origin the proxy serves, e.g. `http://127.0.0.1:4545`. */
  readonly url: string;
  /** What agents set as `OPENAI_BASE_URL`: `${url}/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Requests being answered right now. */
  readonly inFlight: number;
  /**
   * Stops accepting, lets in-flight requests finish (up to `timeouts.shutdownGraceMs`, then cuts
   * them), writes everything captured and closes the store.
   */
  close(): Promise<void>;
}

/** Starts the proxy described by `config`; resolves once it is listening. */
export async function startProxy(config: Config, options: ProxyOptions = {}): Promise<RunningProxy> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const capture = config.mode === 'record';
  const recorder = capture ? await startWorkerRecorder(config, (message) => logger.error(message)) : undefined;
  // Only for paths in log lines; bodies and headers are redacted in the store worker.
  const logRedactor = createRedactor(config.redact.headers, []);
  const upstream = createUpstream(config);
  const errorJson = (message: string): string => JSON.stringify(openAiChatAdapter.errorBody(new CalltapeError('UPSTREAM_UNREACHABLE', message)));
  const passThrough = createPassThrough(config.upstream, config.timeouts.upstreamHeadersMs, errorJson, logger);
  let inFlight = 0;
  let drained: (() => void) | undefined;

  const server = createServer((request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    route(request, response).catch((error: unknown) => {
      logger.error(`unexpected failure on ${request.method ?? ''} ${logRedactor.path(request.url ?? '')}: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) sendError(response, openAiChatAdapter, new CalltapeError('UPSTREAM_UNREACHABLE', 'calltape: internal error'));
      else response.destroy();
    });
  });
  // Idle agent sockets outlive the client pools' own idle timeouts, so a reused socket is never one we just closed.
  server.keepAliveTimeout = config.timeouts.keepAliveMs;
  server.headersTimeout = config.timeouts.keepAliveMs + 1_000;
  server.requestTimeout = Math.max(300_000, server.headersTimeout + 1_000);

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const sessionRoute = parseSessionRoute(url, request.headers[sessionHeader]);
    const adapter = sessionRoute ? findAdapter(method, sessionRoute.path) : undefined;
    if (!sessionRoute) {
      sendError(response, openAiChatAdapter, new CalltapeError('INVALID_REQUEST', 'calltape: the session id (path prefix /s/<id>/ or x-calltape-session header) must be 1-200 printable characters'));
      return;
    }
    if (!adapter) {
      request.url = sessionRoute.path + sessionRoute.query;
      delete request.headers[sessionHeader];
      passThrough.web(request, response);
      return;
    }
    await handleCaptured(adapter, request, response, { sessionId: sessionRoute.sessionId, path: sessionRoute.path + sessionRoute.query });
  }

  async function handleCaptured(adapter: ProviderAdapter, request: IncomingMessage, response: ServerResponse, where: { sessionId: string | undefined; path: string }): Promise<void> {
    const startedAt = Date.now();
    const startedPerf = performance.now();
    const method = request.method ?? 'POST';
    const read = await readRequestBody(request, config.limits.maxBodyBytes);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      logger.info(`${method} ${logRedactor.path(where.path)}: request body over ${config.limits.maxBodyBytes} bytes rejected (413)`);
      sendError(response, adapter, new CalltapeError('BODY_TOO_LARGE', `calltape: the request body exceeds the limit of ${config.limits.maxBodyBytes} bytes (limits.maxBodyBytes)`), true);
      return;
    }
    // Time-ordered ids keep every store index append-only.
    const id = timeOrderedId();
    const record = (upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined): void => {
      recorder?.record({
        adapterId: adapter.id,
        request: { id, sessionId: where.sessionId ?? id, method, path: where.path, headers: withoutSessionHeader(request.headers), body: read.body, startedAt },
        upstream: upstreamOutcome,
        proxyError: proxyError && { status: proxyError.status, message: proxyError.message },
      });
    };

    try {
      // Parsed only to reject bad JSON before it costs an upstream call; the summary is built off this path.
      JSON.parse(read.body.toString('utf8'));
    } catch (error) {
      const invalid = new CalltapeError('INVALID_JSON', `calltape: the request body is not valid JSON (${(error as Error).message})`);
      sendError(response, adapter, invalid);
      record(undefined, invalid);
      return;
    }

    let failure: CalltapeError | undefined;
    forwardUpstream(
      upstream.pool,
      { method, path: upstream.pathPrefix + where.path, headers: upstreamRequestHeaders(request.headers), body: read.body, startedPerf, capture },
      response,
      (error) => {
        failure = classifyUpstreamFailure(error, upstream.url, { connectMs: config.timeouts.upstreamConnectMs, headersMs: config.timeouts.upstreamHeadersMs });
        logger.error(failure.message);
        sendError(response, adapter, failure);
      },
      (outcome) => {
        logger.debug(`${method} ${logRedactor.path(where.path)} → ${outcome.status ?? failure?.status ?? '-'} ${outcome.ending} ${outcome.totalMs.toFixed(1)} ms`);
        const { error: _error, ...captured } = outcome;
        record(captured, failure);
      },
    );
  }

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
    await recorder?.close();
    passThrough.close();
    await upstream.pool.destroy();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    get inFlight() {
      return inFlight;
    },
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
        await recorder?.close();
        passThrough.close();
        await upstream.pool.destroy();
      })();
      return closing;
    },
  };
}

function withoutSessionHeader(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  if (headers[sessionHeader] === undefined) return headers;
  const { [sessionHeader]: _session, ...rest } = headers;
  return rest;
}

function sendError(response: ServerResponse, adapter: ProviderAdapter, error: CalltapeError, closeConnection = false): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify(adapter.errorBody(error));
  response.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    // An unread oversized body must not be drained into memory to keep the socket alive.
    ...(closeConnection ? { connection: 'close' } : {}),
  });
  response.end(body);
}
