import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRpcId, JsonRpcMessage } from '../mcp/json-rpc.js';
import { JsonRpcTap } from '../mcp/json-rpc-tap.js';
import { noteInterim } from '../mcp/note-interim.js';
import { mcpErrorBody } from '../mcp/mcp-http-request.js';
import type { McpResponder, PendingMcpRequest } from '../mcp/mcp-responder.js';
import { McpSessions } from '../mcp/mcp-sessions.js';
import type { Logger } from '../logger.js';
import { forwardUpstream } from './forward-upstream.js';
import { upstreamRequestHeaders } from './headers.js';
import type { Upstream } from './upstream.js';
import { printableUrl } from '../cassette/printable-url.js';

/** A request being recorded, and the responder it is recorded with. */
interface Owed {
  readonly responder: McpResponder;
  readonly pending: PendingMcpRequest;
}

/** One HTTP request relayed to an MCP server. */
export interface McpRelayRequest {
  readonly server: string;
  readonly upstream: Upstream;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** The POST body, forwarded unchanged; absent for GET and DELETE. */
  readonly body: Buffer | undefined;
  /** The client's query string (with its `?`), appended to the server's path. */
  readonly query: string;
  /** Requests in this POST whose answers are recorded, by `idKey`. */
  readonly owed: ReadonlyMap<string, Owed>;
  /** Told of the session id the server gave an `initialize` answer. */
  onSession?(session: string): void;
  /** Told of the headers of the server's answer, before its body is read (cookies it sets are credentials). */
  onServerHeaders?(headers: IncomingHttpHeaders): void;
}

/** Answers still owed per session are bounded: a client that never resumes cannot grow the proxy forever. */
const maxOwedPerSession = 1000;

/**
 * Relays the Streamable HTTP transport to a server: POST, GET (the server's stream) and DELETE
 * go through with their headers (`Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`,
 * `Mcp-Method`, `Mcp-Name`, the server's credentials) and bodies unchanged, JSON or SSE
 * answers streamed chunk by chunk as they arrive. Beside that, the answers are read off the
 * stream and recorded; an answer that was not on its POST's stream (the client lost it and
 * resumed with `Last-Event-ID`) is recorded when the resumed stream brings it, and what the
 * server sends on its own GET stream is kept with the session's latest request in flight.
 */
export class McpRelay {
  private readonly owedBySession = new McpSessions<Map<string, Owed>>();

  constructor(
    private readonly options: { readonly logger: Logger; readonly maxCaptureBytes: number },
  ) {}

  forward(relayed: McpRelayRequest): void {
    const { request, response, upstream } = relayed;
    const method = request.method ?? 'POST';
    let session = headerValue(request.headers['mcp-session-id']);
    const owed = new Map(relayed.owed);
    // The session's requests in flight, so the server's own stream (GET) can be read against them.
    if (session !== undefined && owed.size > 0) this.keepOwed(relayed.server, session, owed);
    // A GET without Last-Event-ID opens the server's own stream; with one, it resumes a POST's.
    const standalone = method === 'GET' && request.headers['last-event-id'] === undefined;
    let tap: JsonRpcTap | undefined;
    const onMessage = (message: JsonRpcMessage): void => {
      const later =
        session === undefined ? undefined : this.owedBySession.get(relayed.server, session);
      // On a POST's stream, what the server sends before its answers belongs to that POST's
      // requests; on a GET stream, to the session's requests in flight.
      if (message.kind === 'notification' || message.kind === 'request')
        return noteInterim(
          [...(method === 'POST' ? owed : (later ?? owed)).values()].map((entry) => entry.pending),
          message,
          standalone ? 'standalone' : 'request',
        );
      if (message.kind !== 'response') return;
      const key = idKey(message.id);
      const entry = owed.get(key) ?? later?.get(key);
      if (!entry) return;
      owed.delete(key);
      later?.delete(key);
      entry.responder.record(entry.pending, { result: message.result, error: message.error });
    };
    forwardUpstream({
      dispatcher: upstream.pool,
      request: {
        method,
        path: `${upstream.pathPrefix || '/'}${relayed.query}`,
        headers: upstreamRequestHeaders(request.headers),
        body: relayed.body ?? Buffer.alloc(0),
        startedPerf: performance.now(),
        capture: false,
      },
      agent: response,
      delivery: 'stream',
      observer: {
        start: (_status, headers) => {
          relayed.onServerHeaders?.(headers);
          const given = headerValue(headers['mcp-session-id']);
          if (given !== undefined && session === undefined) {
            session = given;
            relayed.onSession?.(given);
          }
          tap = new JsonRpcTap(
            headerValue(headers['content-type']),
            onMessage,
            this.options.maxCaptureBytes,
          );
        },
        data: (chunk) => tap?.push(chunk),
      },
      onFailureBeforeHeaders: (error) => {
        this.options.logger.error(
          `calltape: MCP server ${relayed.server} (${printableUrl(upstream.url)}) failed: ${error.message}`,
        );
        const body = mcpErrorBody({
          code: -32603,
          message: `calltape: could not reach the MCP server ${relayed.server} (${error.message})`,
        });
        if (!response.headersSent)
          response
            .writeHead(502, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            })
            .end(body);
      },
      onDone: () => {
        tap?.end();
        if (owed.size > 0 && session !== undefined) this.keepOwed(relayed.server, session, owed);
      },
    });
    if (method === 'DELETE' && session !== undefined)
      this.owedBySession.delete(relayed.server, session);
  }

  /** Requests of a session still unanswered: a GET stream may speak during them, a resumed one bring their answers. */
  private keepOwed(server: string, session: string, owed: Map<string, Owed>): void {
    const kept = this.owedBySession.get(server, session) ?? new Map<string, Owed>();
    for (const [key, entry] of owed) {
      kept.set(key, entry);
      if (kept.size > maxOwedPerSession) kept.delete(kept.keys().next().value as string);
    }
    this.owedBySession.set(server, session, kept);
  }
}

/** Ids 1 and "1" are different requests. */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

/** A header's single value (the first, when repeated). */
export function headerValue(value: IncomingHttpHeaders[string]): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
