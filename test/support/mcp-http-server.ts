import type { IncomingHttpHeaders } from 'node:http';
import { hostMcpOverHttp } from './mcp-http-host.js';
import { notesMcpServer } from './notes-mcp-server.js';

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
 * Serves the notes server the way a hosted MCP server does (mcp-http-host.ts), with a bearer
 * token every request must carry.
 */
export async function startNotesHttpServer(token: string): Promise<NotesHttpServer> {
  const notes: string[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const host = await hostMcpOverHttp(
    () => notesMcpServer((text) => notes.push(text)),
    (request, response) => {
      requests.push(request.headers);
      if (request.headers.authorization === `Bearer ${token}`) return false;
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"unauthorized"}');
      return true;
    },
  );
  return { ...host, notes, requests };
}
