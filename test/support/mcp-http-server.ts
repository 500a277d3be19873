import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { notesMcpServer } from './notes-mcp-server.js';
import { OrderedEventStore } from './ordered-event-store.js';

/** The notes server over Streamable HTTP, in this process, with what a test inspects. */
export interface NotesHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** `write_note` invocations so far (the side effect replay must never cause). */
  readonly notes: string[];
  /** The headers of every request that reached the server. */
  readonly requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * Serves the notes server the way a hosted MCP server does: stateful sessions (`Mcp-Session-Id`),
 * SSE answers with an event store (resumable with `Last-Event-ID`), the GET stream, DELETE, and a
 * bearer token every request must carry.
 */
export async function startNotesHttpServer(token: string): Promise<NotesHttpServer> {
  const notes: string[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests.push(request.headers);
    if (request.headers.authorization !== `Bearer ${token}`)
      return void response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"unauthorized"}');
    const session = request.headers['mcp-session-id'];
    let transport = typeof session === 'string' ? transports.get(session) : undefined;
    if (!transport) {
      if (typeof session === 'string') return void response.writeHead(404).end();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: new OrderedEventStore(),
        retryInterval: 1,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await notesMcpServer((text) => notes.push(text)).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    notes,
    requests,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
