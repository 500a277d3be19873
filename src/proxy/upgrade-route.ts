import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Redactor } from '../cassette/redact.js';
import type { ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import type { CapturePipeline } from './capture-pipeline.js';
import { sessionHeader } from './headers.js';
import type { PassThroughs } from './pass-through.js';
import { parseSessionRoute, type SessionRoute } from './session-route.js';
import { routeRefusal } from './guard/request-target.js';
import type { LazyWebSocketRoute } from './lazy-websocket-route.js';

export interface UpgradeRouteOptions {
  readonly mode: ProxyMode;
  /** `cassettes.allowRequestOverride`: whether a request may pick its cassette and mode with `/c/<name>:<mode>/`. */
  readonly allowRequestOverride: boolean;
  readonly redactor: Redactor;
  readonly pipeline: CapturePipeline;
  readonly websocketRoute: Pick<LazyWebSocketRoute, 'handle'>;
  readonly passThroughs: PassThroughs;
  /** The cassette file a request's `/c/<name>/` prefix (or its absence) stands for. */
  cassetteFor(route: SessionRoute): string;
}

/**
 * WebSocket upgrades that are not calltape's own (the feed): the Responses WebSocket mode is
 * captured; any other upgrade under `/v1/` is relayed untouched, except in replay, which never
 * touches the network and so refuses what it cannot answer.
 */
export class UpgradeRoute {
  constructor(private readonly options: UpgradeRouteOptions) {}

  handle(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { redactor } = this.options;
    const route = parseSessionRoute(request.url ?? '/', request.headers[sessionHeader]);
    if ('error' in route) return refuse(socket, new CalltapeError('INVALID_REQUEST', route.error));
    const refusal = routeRefusal(route, this.options.allowRequestOverride);
    if (refusal) return refuse(socket, new CalltapeError('INVALID_REQUEST', refusal));
    const mode = route.cassette?.mode ?? this.options.mode;
    if (!route.path.startsWith('/v1/'))
      return refuse(
        socket,
        new CalltapeError(
          'INVALID_REQUEST',
          `calltape: WebSocket upgrades are relayed under /v1/ only; ${redactor.path(route.path)} is not`,
        ),
      );
    const where = {
      sessionId: route.sessionId,
      path: route.path + route.query,
      cassette: this.options.cassetteFor(route),
      mode,
    };
    if (/\/responses$/.test(route.path))
      return this.options.websocketRoute.handle(request, socket, head, where);
    if (mode === 'replay') {
      const miss = new CalltapeError(
        'CASSETTE_MISS',
        `calltape: replay cannot answer a WebSocket upgrade to ${redactor.path(route.path)}: only /v1/responses WebSocket traffic is recorded`,
      );
      this.options.pipeline.missed(where, miss);
      return refuse(socket, miss);
    }
    const passThrough = this.options.passThroughs.for(request, route.path);
    if (passThrough instanceof CalltapeError) return refuse(socket, passThrough);
    request.url = route.path + route.query;
    delete request.headers[sessionHeader];
    passThrough.ws(request, socket, head);
  }
}

/** Answers an upgrade with an HTTP error in the OpenAI error shape and closes the socket. */
function refuse(socket: Duplex, error: CalltapeError): void {
  const body = JSON.stringify(openAiChatAdapter.errorBody(error));
  const reason = error.status === 404 ? 'Not Found' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${error.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
