import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { openAiResponsesAdapter } from '../providers/openai-responses/openai-responses-adapter.js';
import type { CapturePipeline } from './capture-pipeline.js';
import type { CassetteRegistry } from './cassette-registry.js';
import { sessionHeader, upstreamRequestHeaders } from './headers.js';
import type { Logger } from '../logger.js';
import { selectMocks, type MockState } from './mock-state.js';
import type { Where } from './route-types.js';
import type { Upstream } from './upstream.js';
import { closeWhenIdle } from './guard/close-when-idle.js';
import { WebSocketConnection } from './websocket-connection.js';
import { frameType } from './websocket-frames.js';
import { websocketErrorFrame } from './websocket-error-frame.js';
import { answerTurnWithMocks } from './websocket-mock-turn.js';

/** The handshake is the ws library's to make; everything else the agent sent goes upstream. */
const handshake = new Set([
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'upgrade',
  'connection',
]);

export interface WebSocketRouteOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly upstream: Upstream;
  readonly cassettes: CassetteRegistry;
  readonly pipeline: CapturePipeline;
  /** Mock tools, when configured: calls to them are answered inside the proxy over WebSocket too. */
  readonly mockState?: MockState | undefined;
}

/**
 * The Responses API over WebSocket (`/v1/responses`, the OpenAI SDK's WebSocket mode): each
 * upgrade becomes a `WebSocketConnection` whose rounds are recorded like streamed
 * `POST /v1/responses` (the events as SSE, one per frame, so every frame's text comes back
 * exactly) and replayed frame by frame. A cassette that cannot be opened, or a bad mocks header,
 * is answered with an error frame and a close.
 */
export class WebSocketRoute {
  private readonly server = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly adapter = openAiResponsesAdapter;

  constructor(private readonly options: WebSocketRouteOptions) {}

  handle(request: IncomingMessage, socket: Duplex, head: Buffer, where: Where): void {
    this.server.handleUpgrade(request, socket, head, (client) => {
      closeWhenIdle(socket, this.options.config.timeouts.webSocketIdleMs);
      void this.accept(client, request, where);
    });
  }

  private async accept(client: WebSocket, request: IncomingMessage, where: Where): Promise<void> {
    const { mockState, config, pipeline } = this.options;
    const mocks = mockState ? selectMocks(mockState, request.headers) : undefined;
    if (mocks instanceof CalltapeError)
      return this.refuse(client, mocks, 1008, 'bad x-calltape-mocks');
    const cassette = await this.options.cassettes.open(where.cassette, where.mode);
    // Nothing can be answered (and in replay nothing may go to the network): say why and hang up.
    if (cassette instanceof CalltapeError)
      return this.refuse(client, cassette, 1011, 'cassette unavailable');
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name !== sessionHeader),
    );
    const connection = new WebSocketConnection({
      client,
      adapter: this.adapter,
      where,
      headers,
      reader: cassette.reader,
      pipeline,
      logger: this.options.logger,
      maxCaptureBytes: this.options.config.limits.maxResponseBytes,
      connectUpstream: () => this.connectUpstream(request, where),
    });
    const wire = this.adapter.toolLoop;
    let turns = Promise.resolve();
    client.on('message', (data, binary) => {
      const text = binary ? undefined : data.toString();
      if (
        text === undefined ||
        frameType(text) !== 'response.create' ||
        !mocks ||
        mocks.size === 0 ||
        !mockState ||
        !wire
      )
        return connection.relay(data, binary);
      // Turns under mocks are answered one after another, as the agent sent them.
      const options = {
        client,
        connection,
        adapter: { ...this.adapter, toolLoop: wire },
        mocks,
        mockState,
        config,
        pipeline,
        session: where.sessionId ?? '',
      };
      turns = turns.then(() => answerTurnWithMocks(text, options));
    });
  }

  private refuse(client: WebSocket, error: CalltapeError, code: number, reason: string): void {
    client.send(websocketErrorFrame(this.adapter, error));
    client.close(code, reason);
  }

  private connectUpstream(request: IncomingMessage, where: Where): WebSocket {
    const { upstream } = this.options;
    const target = `${upstream.origin.replace(/^http/, 'ws')}${upstream.pathPrefix}${where.path}`;
    const outgoing = Object.fromEntries(
      Object.entries(upstreamRequestHeaders(request.headers)).filter(
        ([name]) => !handshake.has(name),
      ),
    );
    return new WebSocket(target, { headers: outgoing, perMessageDeflate: false });
  }
}
