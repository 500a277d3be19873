import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { OrderedEventStore } from './ordered-event-store.js';

/** A Streamable HTTP MCP endpoint in this process. */
export interface McpHttpHost {
  /** The endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves MCP the way a hosted server does: stateful sessions (`Mcp-Session-Id`), one server per
 * session from `newServer`, SSE answers with an event store (resumable with `Last-Event-ID`),
 * the GET stream and DELETE. `refuse` answers a request itself (returns true) before MCP sees it.
 */
export async function hostMcpOverHttp(
  newServer: () => Server | McpServer,
  refuse: (request: IncomingMessage, response: ServerResponse) => boolean,
): Promise<McpHttpHost> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (refuse(request, response)) return;
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
      await newServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
