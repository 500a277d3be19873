import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { credentialValues } from '../cassette/credential-values.js';
import type { Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { answerMcpPost } from '../mcp/answer-mcp-post.js';
import { responseMessage } from '../mcp/json-rpc.js';
import { headerMismatch, parseMcpPost, type McpPost } from '../mcp/mcp-http-request.js';
import type { McpExchange } from '../mcp/mcp-exchange.js';
import type { McpServerMockSet } from '../mcp/mcp-mock-types.js';
import { McpResponder, type McpDiff, type PendingMcpRequest } from '../mcp/mcp-responder.js';
import { McpSessions } from '../mcp/mcp-sessions.js';
import { McpStore } from '../mcp/mcp-store.js';
import type { CapturePipeline } from './capture-pipeline.js';
import { refusedAsRebinding, sendJson, sendMcpError } from './mcp-json-answer.js';
import { headerValue, idKey, McpRelay } from './mcp-relay.js';
import {
  openStandaloneStream,
  streamReplayedAnswer,
  type AwaitedAnswers,
  type StandaloneStream,
} from './mcp-replay-stream.js';
import { readRequestBody } from './read-request-body.js';
import type { Where } from './route-types.js';
import { timeOrderedId } from '../cassette/time-ordered-id.js';
import { createUpstream, type Upstream } from './upstream.js';

export interface McpRouteOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** Replay misses are counted with the LLM routes' (the run's exit code and summary). */
  readonly pipeline: Pick<CapturePipeline, 'missed'>;
  /** Diff mode: a live answer compared with its recording (counted and reported with the LLM routes'). */
  readonly noteDiff: (diff: McpDiff) => void;
  /** The `mcp` entries of the mocks files, by server (loaded and checked before the proxy starts). */
  readonly mocks: ReadonlyMap<string, McpServerMockSet>;
  /** Told of every exchange the route answered or relayed, redacted (the proxy's OTel sink). */
  readonly onExchange?: (exchange: McpExchange) => void;
}

/** An MCP session calltape knows: its responder, and whether calltape answers it itself (`offline`) or relays it. */
interface McpSession {
  readonly responder: McpResponder;
  readonly offline: boolean;
  /** Replay's requests to the client awaiting its answer. */
  readonly awaiting: AwaitedAnswers;
  /** Replay: the client's GET stream, where what the server sent on its own stream is replayed. */
  readonly standalone: StandaloneStream;
}

const noMocks: McpServerMockSet = { tools: undefined, mocks: new Map(), state: new Map() };

/**
 * `/mcp/<name>`: the Streamable HTTP transport in front of the servers of `mcp.servers`, with
 * the stdio relay's record / replay / mock core (`McpResponder`). Online (record, passthrough,
 * diff, auto with the server not yet recorded) the server's traffic is relayed untouched and
 * its answers recorded (diff: compared with the recordings); offline (replay, a server only a
 * mocks file declares, auto with the server recorded) calltape answers as the server did, with
 * its own session ids and the client's JSON-RPC ids.
 */
export class McpRoute {
  private readonly mocks: ReadonlyMap<string, McpServerMockSet>;
  private readonly upstreams = new Map<string, Upstream>();
  private readonly stores = new Map<string, McpStore>();
  private readonly sessions = new McpSessions<McpSession>();
  private readonly relay: McpRelay;
  /** Ids of the requests replay sent clients (fresh, never a client's own). */
  private sent = 0;

  constructor(private readonly options: McpRouteOptions) {
    this.mocks = options.mocks;
    this.relay = new McpRelay({
      logger: options.logger,
      maxCaptureBytes: options.config.limits.maxResponseBytes,
    });
  }

  async handle(request: IncomingMessage, response: ServerResponse, where: Where): Promise<void> {
    const queryAt = where.path.indexOf('?');
    const server = decodeURIComponent(
      (queryAt === -1 ? where.path : where.path.slice(0, queryAt)).slice('/mcp/'.length),
    );
    const query = queryAt === -1 ? '' : where.path.slice(queryAt);
    const servers = this.options.config.mcp.servers;
    const url = Object.hasOwn(servers, server) ? servers[server] : undefined;
    if (url === undefined && !this.mocks.has(server)) {
      const known = [...Object.keys(servers), ...this.mocks.keys()];
      return sendMcpError(response, 404, {
        code: -32601,
        message: `calltape: no MCP server named "${server}" (mcp.servers${known.length > 0 ? ` has ${known.join(', ')}` : ' is empty'})`,
      });
    }
    const method = request.method ?? 'GET';
    let body: Buffer | undefined;
    if (method === 'POST') {
      const read = await readRequestBody(request, this.options.config.limits.maxBodyBytes);
      if (read.kind === 'aborted') return;
      if (read.kind === 'too-large')
        return sendMcpError(response, 413, {
          code: -32600,
          message: `calltape: the request body exceeds the limit of ${this.options.config.limits.maxBodyBytes} bytes (limits.maxBodyBytes)`,
        });
      body = read.body;
    }
    const post = body && parseMcpPost(body);
    const sessionId = headerValue(request.headers['mcp-session-id']);
    const initializing =
      post?.messages.some(
        (message) => message.kind === 'request' && message.method === 'initialize',
      ) === true;
    const known = sessionId === undefined ? undefined : this.sessions.get(server, sessionId);
    const offline =
      known?.offline ??
      (url === undefined ||
        where.mode === 'replay' ||
        (where.mode === 'auto' && this.recorded(where.cassette, server)));
    if (offline && refusedAsRebinding(request, response, server, this.options.config)) return;
    if (offline)
      return this.answer({
        request,
        response,
        where,
        server,
        post,
        method,
        sessionId,
        initializing,
        known,
      });
    const upstream = this.upstreamOf(server, url as string);
    // A stateless server's client sends no session id: one session per calltape session then.
    const session = initializing
      ? this.session(server, { where, request }, false)
      : (known ??
        this.remember(
          server,
          sessionId ?? statelessKey(where),
          this.session(server, { where, request }, false),
        ));
    const { responder } = session;
    // Redacted per request: a later request may bring a token the session has not seen (a refresh, a rotated key).
    responder.addCredentials(this.credentialsOf(request, where));
    const owed = new Map<string, { responder: McpResponder; pending: PendingMcpRequest }>();
    for (const message of post?.messages ?? []) {
      if (message.kind !== 'request') continue;
      const pending = responder.begin(message.method, message.params, message.id);
      if (!pending) continue;
      const mocked =
        post?.batch === false ? responder.mock(pending, message.id, message.params) : undefined;
      if (mocked)
        return sendJson(response, 200, JSON.stringify(responseMessage(message.id, mocked)));
      owed.set(idKey(message.id), { responder, pending });
    }
    this.relay.forward({
      server,
      upstream,
      request,
      response,
      body,
      query,
      owed,
      onSession: (given) => this.remember(server, given, session),
      onServerHeaders: (headers) =>
        responder.addCredentials(credentialValues(headers, '', this.options.config.redact.headers)),
    });
  }

  /** Closes what the route opened: cassettes and server connections. */
  async close(): Promise<void> {
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
    await Promise.all([...this.upstreams.values()].map((upstream) => upstream.pool.destroy()));
  }

  private answer(call: {
    request: IncomingMessage;
    response: ServerResponse;
    where: Where;
    server: string;
    post: McpPost | undefined;
    method: string;
    sessionId: string | undefined;
    initializing: boolean;
    known: McpSession | undefined;
  }): void {
    const { response, server, post, sessionId } = call;
    if (call.method === 'GET')
      return openStandaloneStream(response, sessionId, call.known?.standalone);
    if (call.method === 'DELETE') {
      call.known?.standalone.response?.end();
      const ended = sessionId !== undefined && this.sessions.delete(server, sessionId);
      return void response.writeHead(ended ? 200 : 404).end();
    }
    if (call.method !== 'POST')
      return void response.writeHead(405, { allow: 'POST, GET, DELETE' }).end();
    if (!post)
      return sendMcpError(response, 400, {
        code: -32700,
        message: 'Parse error: the body is not JSON',
      });
    const mismatch = post.batch
      ? undefined
      : headerMismatch(
          {
            method: headerValue(call.request.headers['mcp-method']),
            name: headerValue(call.request.headers['mcp-name']),
          },
          post.messages[0] as McpPost['messages'][number],
        );
    if (mismatch)
      return sendMcpError(response, 400, {
        code: -32001,
        message: `Header mismatch: ${mismatch}`,
        data: { calltape: 'HEADER_MISMATCH' },
      });
    let session = call.known;
    let issued: string | undefined;
    if (call.initializing) {
      issued = timeOrderedId();
      session = this.remember(server, issued, this.session(server, call, true));
    } else if (!session && sessionId !== undefined) {
      // The session is not one calltape issued (a proxy restart, or a recorded id): the client must initialize again.
      return sendMcpError(response, 404, {
        code: -32001,
        message: `Session not found: calltape issued no MCP session ${sessionId} for ${server}`,
      });
    }
    // A client that never initialized (a stateless server's) shares one session per calltape session.
    session ??=
      this.sessions.get(server, statelessKey(call.where)) ??
      this.remember(server, statelessKey(call.where), this.session(server, call, true));
    session.responder.addCredentials(this.credentialsOf(call.request, call.where));
    for (const message of post.messages)
      if (message.kind === 'response') session.awaiting.get(idKey(message.id))?.();
    const answer = answerMcpPost(session.responder, post, () => `calltape-replay-${++this.sent}`);
    const headers: Record<string, string> =
      issued === undefined ? {} : { 'mcp-session-id': issued };
    if (answer.status === 202) return void response.writeHead(202, headers).end();
    if (answer.interim.length > 0)
      return void streamReplayedAnswer(
        response,
        headers,
        answer.interim,
        answer.body,
        session.awaiting,
        session.standalone,
      );
    sendJson(response, 200, JSON.stringify(answer.body), headers);
  }

  private remember(server: string, sessionId: string, session: McpSession): McpSession {
    this.sessions.set(server, sessionId, session);
    if (!sessionId.startsWith('\n')) session.responder.bindSession(sessionId);
    return session;
  }

  private session(
    server: string,
    { where, request }: { readonly where: Where; readonly request: IncomingMessage },
    offline: boolean,
  ): McpSession {
    const { redactor, pipeline, logger } = this.options;
    const responder = new McpResponder({
      server,
      session: where.sessionId ?? timeOrderedId(),
      sessionGiven: where.sessionId !== undefined,
      redactor,
      mocks: this.mocks.get(server) ?? noMocks,
      reader: offline || where.mode === 'diff' ? this.store(where.cassette, 'read') : undefined,
      writer:
        where.mode === 'record' || where.mode === 'auto'
          ? this.store(where.cassette, 'write')
          : undefined,
      ...(where.mode === 'diff' && !offline ? { onDiff: this.options.noteDiff } : {}),
      onMiss: (message) => pipeline.missed(where, new CalltapeError('CASSETTE_MISS', message)),
      transport: 'http',
      ...(this.options.onExchange ? { onExchange: this.options.onExchange } : {}),
      onRefused: (message) => logger.error(message),
    });
    // The server's credentials (Authorization…) are redacted wherever they appear in what is stored.
    responder.addCredentials(this.credentialsOf(request, where));
    return { responder, offline, awaiting: new Map(), standalone: { response: undefined } };
  }

  /** The credentials a client request carries: its credential headers and query parameters. */
  private credentialsOf(request: IncomingMessage, where: Where): string[] {
    return credentialValues(request.headers, where.path, this.options.config.redact.headers);
  }

  private recorded(cassette: string, server: string): boolean {
    return this.store(cassette, 'read')?.hasServer(server) === true;
  }

  private store(path: string, access: 'read' | 'write'): McpStore | undefined {
    const key = `${access}:${path}`;
    let store = this.stores.get(key);
    if (!store && (access === 'write' || existsSync(path))) {
      store = new McpStore(path, { readonly: access === 'read' });
      this.stores.set(key, store);
    }
    return store;
  }

  private upstreamOf(server: string, url: string): Upstream {
    let upstream = this.upstreams.get(server);
    if (!upstream) {
      upstream = createUpstream(this.options.config, url);
      this.upstreams.set(server, upstream);
    }
    return upstream;
  }
}

/** The key of the one session a client without a session id gets, per calltape session (no MCP session id starts with a newline). */
function statelessKey(where: Where): string {
  return `\n${where.sessionId ?? ''}`;
}
