import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createParser } from 'eventsource-parser';

/** What a client saw of the server's own (GET) stream, and how often the server asked it for roots. */
export interface Watched {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** The messages of the GET stream, ids left out (replay sends requests with ids of its own). */
  readonly onServerStream: unknown[];
  readonly rootsAsked: () => number;
}

/**
 * An SDK client whose fetch shows the test the GET stream: resolves once that stream is open (so
 * the server has somewhere to speak before the test calls a tool), or at once when `refuseGet`
 * answers the client's GET with 405 itself (a client then works without the stream).
 */
export async function connectWatching(
  url: string,
  token: string,
  refuseGet = false,
): Promise<Watched> {
  const onServerStream: unknown[] = [];
  let opened: () => void = () => undefined;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const watching: typeof fetch = async (input, init) => {
    if (init?.method !== 'GET') return fetch(input, init);
    if (refuseGet) {
      opened();
      return new Response(null, { status: 405 });
    }
    const response = await fetch(input, init);
    if (!response.ok || !response.body) {
      opened();
      return response;
    }
    const [mine, theirs] = response.body.tee();
    void collect(mine, onServerStream);
    opened();
    return new Response(theirs, { status: response.status, headers: response.headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: watching,
  });
  const client = new Client(
    { name: 'calltape-test-agent', version: '0.0.1' },
    { capabilities: { roots: { listChanged: true } } },
  );
  let asked = 0;
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked++;
    return { roots: [{ uri: 'file:///work', name: 'work' }] };
  });
  await client.connect(transport);
  await streamOpen;
  return { client, transport, onServerStream, rootsAsked: () => asked };
}

/** Collects the JSON-RPC messages of an SSE stream, ids left out. */
async function collect(stream: ReadableStream<Uint8Array>, into: unknown[]): Promise<void> {
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === '') return;
      const { id: _id, ...message } = JSON.parse(event.data) as { id?: unknown };
      into.push(message);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch {
    // The client closed the stream.
  }
}

export async function rootsAside(watched: Watched): Promise<unknown> {
  try {
    return await watched.client.callTool({ name: 'roots_aside', arguments: {} });
  } finally {
    await watched.transport.terminateSession();
    await watched.client.close();
  }
}

/** The notes server's `roots_aside` answer, and what it sends on its own stream before it. */
export const rootsAsideAnswer = { content: [{ type: 'text', text: '1 root(s), asked aside' }] };
export const rootsAsideLog = {
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 'asking for roots' },
};
export const rootsAsideRequest = { jsonrpc: '2.0', method: 'roots/list' };
