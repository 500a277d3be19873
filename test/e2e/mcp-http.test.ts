import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import {
  interimSession,
  interimSessionSeen,
  listedMcpCalls,
  notesSession,
  notesSessionCalls,
} from '../support/mcp-client.js';
import { startNotesHttpServer, type NotesHttpServer } from '../support/mcp-http-server.js';
import {
  connectWatching,
  rootsAside,
  rootsAsideAnswer,
  rootsAsideLog,
  rootsAsideRequest,
} from '../support/mcp-server-stream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const token = 'notes-bearer-0123456789abcdef';
const secretArgument = 'sk-live-notes-0123456789abcdef';

/** An SDK client on Streamable HTTP, offering roots so the server can ask it a question back. */
async function connect(
  url: string,
  sessionId?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: {
      headers: {
        authorization: `Bearer ${token}`,
        ...(sessionId ? { 'x-calltape-session': sessionId } : {}),
      },
    },
  });
  const client = new Client(
    { name: 'calltape-test-agent', version: '0.0.1' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  await client.connect(transport);
  return { client, transport };
}

/** One agent session over HTTP (`notesSession`), ended with DELETE. */
async function session(url: string): Promise<unknown[]> {
  const { client, transport } = await connect(url, 'agent-run-1');
  try {
    return await notesSession(client, secretArgument);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

describe('/mcp/<name>: Streamable HTTP through the proxy, with the official MCP SDK on both sides', () => {
  const folder = temporaryFolder();
  const cassette = join(folder, 'notes.sqlite');
  let server: NotesHttpServer;
  const proxyWith = (overrides: Partial<Config>) =>
    startTestProxy('http://127.0.0.1:9', {
      cassette,
      mcp: { servers: { notes: server.url } },
      ...overrides,
    });

  beforeAll(async () => {
    server = await startNotesHttpServer(token);
  });
  afterAll(() => server.close());

  it('relays a session unchanged, records it, and replays it with the server gone', async () => {
    const direct = await session(server.url);
    server.notes.length = 0;

    const recording = await proxyWith({ mode: 'record' });
    const recorded = await session(`${recording.url}/mcp/notes`);
    await recording.close();
    expect(recorded).toEqual(direct);
    expect(server.notes).toEqual(['buy milk', 'buy milk']);
    // The server's credential reached it, and calltape's own header did not.
    const relayed = server.requests.at(-1) ?? {};
    expect(relayed.authorization).toBe(`Bearer ${token}`);
    expect(relayed['x-calltape-session']).toBeUndefined();

    server.notes.length = 0;
    const before = readFileSync(cassette);
    // A server that would answer differently is never asked: replay needs none.
    const replaying = await proxyWith({
      mode: 'replay',
      mcp: { servers: { notes: 'http://127.0.0.1:9/mcp' } },
    });
    const replayed = await session(`${replaying.url}/mcp/notes`);
    await replaying.close();
    expect(server.notes).toEqual([]);
    expect(replayed).toEqual(recorded);
    expect(replaying.stats.misses).toBe(0);
    expect(readFileSync(cassette).equals(before)).toBe(true);
  });

  it('replays the progress a tool reported and the request it made to the client on the POST’s stream, in order', async () => {
    const own = join(folder, 'interim.sqlite');
    const run = async (url: string) => {
      const { client, transport } = await connect(url);
      try {
        return await interimSession(client, transport);
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    };
    const recording = await proxyWith({ mode: 'record', cassette: own });
    const recorded = await run(`${recording.url}/mcp/notes`);
    await recording.close();
    expect(recorded).toMatchObject(interimSessionSeen);
    const replaying = await proxyWith({
      mode: 'replay',
      cassette: own,
      mcp: { servers: { notes: 'http://127.0.0.1:9/mcp' } },
    });
    const replayed = await run(`${replaying.url}/mcp/notes`);
    await replaying.close();
    expect(replayed).toEqual(recorded);
    expect(replaying.stats.misses).toBe(0);
  });

  it('never stores the server credential or a token passed in tool arguments', () => {
    const db = new Database(cassette, { readonly: true });
    const rows = db
      .prepare("SELECT params, session_id FROM mcp_exchanges WHERE subject = 'write_note'")
      .all() as { params: string; session_id: string }[];
    db.close();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(JSON.parse(row.params)).toEqual({
        name: 'write_note',
        arguments: { text: 'buy milk', api_key: 'REDACTED' },
      });
      expect(row.session_id).toBe('agent-run-1');
    }
    for (const file of [cassette, `${cassette}-wal`]) {
      if (!existsSync(file)) continue;
      expect(readFileSync(file).includes(token)).toBe(false);
      expect(readFileSync(file).includes(secretArgument)).toBe(false);
    }
  });

  it('answers a replay miss with an MCP error naming the first difference, counted as a miss', async () => {
    const replaying = await proxyWith({ mode: 'replay' });
    const { client, transport } = await connect(`${replaying.url}/mcp/notes`);
    await expect(client.callTool({ name: 'add', arguments: { a: 2, b: 4 } })).rejects.toThrow(
      /differs first at arguments\.b: 3 → 4/,
    );
    await transport.terminateSession();
    await client.close();
    await replaying.close();
    expect(replaying.stats.misses).toBe(1);
  });

  it('lists the HTTP calls with their server in calltape calls', () => {
    expect(listedMcpCalls(cassette)).toEqual(notesSessionCalls);
  });

  it('relays a stream the client resumes with Last-Event-ID, and records the answer it brings', async () => {
    const resumed = join(folder, 'resumed.sqlite');
    const proxy = await proxyWith({ mode: 'record', cassette: resumed });
    const { client, transport } = await connect(`${proxy.url}/mcp/notes`);
    expect(await client.callTool({ name: 'add_later', arguments: { a: 20, b: 22 } })).toEqual({
      content: [{ type: 'text', text: '42' }],
    });
    await transport.terminateSession();
    await client.close();
    await proxy.close();
    expect(server.requests.some((headers) => headers['last-event-id'] !== undefined)).toBe(true);
    const db = new Database(resumed, { readonly: true });
    const rows = db
      .prepare("SELECT result FROM mcp_exchanges WHERE subject = 'add_later'")
      .pluck()
      .all() as string[];
    db.close();
    expect(rows.map((row) => JSON.parse(row) as unknown)).toEqual([
      { content: [{ type: 'text', text: '42' }] },
    ]);
  });

  it('answers mocked tools in the proxy, so the side effect never runs, and stands in for a server only a mocks file declares', async () => {
    const mocks = join(folder, 'notes-mocks.yaml');
    writeFileSync(
      mocks,
      'mcp:\n  notes:\n    mocks:\n      - tool: write_note\n        content: "mocked: {{args.text}}"\n  ghost:\n    tools:\n      - name: haunt\n        inputSchema: { type: object }\n    mocks:\n      - tool: haunt\n        content: boo\n',
    );
    server.notes.length = 0;
    const proxy = await proxyWith({
      mode: 'record',
      cassette: join(folder, 'mocked.sqlite'),
      mocks: {
        files: [mocks],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 8,
        strictTools: false,
        allowTools: [],
      },
    });
    const notes = await connect(`${proxy.url}/mcp/notes`);
    expect(
      await notes.client.callTool({ name: 'write_note', arguments: { text: 'milk' } }),
    ).toEqual({ content: [{ type: 'text', text: 'mocked: milk' }] });
    expect(await notes.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { sum: 3 },
    });
    await notes.client.close();
    const ghost = await connect(`${proxy.url}/mcp/ghost`);
    expect((await ghost.client.listTools()).tools.map((tool) => tool.name)).toEqual(['haunt']);
    expect(await ghost.client.callTool({ name: 'haunt', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'boo' }],
    });
    await ghost.client.close();
    await proxy.close();
    expect(server.notes).toEqual([]);
  });

  it('diff mode relays to the live server and reports where its answers differ from the recording', async () => {
    // mocked.sqlite holds the mock's write_note answer; the real server answers it otherwise.
    const proxy = await proxyWith({ mode: 'diff', cassette: join(folder, 'mocked.sqlite') });
    const { client } = await connect(`${proxy.url}/mcp/notes`);
    expect(await client.callTool({ name: 'write_note', arguments: { text: 'milk' } })).toEqual({
      content: [{ type: 'text', text: 'stored: milk' }],
    });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.close();
    await proxy.close();
    expect(server.notes).toEqual(['milk']);
    expect(proxy.stats.diffs).toEqual([
      {
        request: 'tools/call write_note on notes',
        recordingId: expect.any(String) as string,
        lines: ['result.content[0].text: "mocked: milk" → "stored: milk"'],
      },
    ]);
  });

  it('auto mode records a server the cassette lacks, then replays it without the server', async () => {
    const cassetteAuto = join(folder, 'auto.sqlite');
    const first = await proxyWith({ mode: 'auto', cassette: cassetteAuto });
    const recorded = await session(`${first.url}/mcp/notes`);
    await first.close();
    server.notes.length = 0;
    const second = await proxyWith({ mode: 'auto', cassette: cassetteAuto });
    expect(await session(`${second.url}/mcp/notes`)).toEqual(recorded);
    await second.close();
    expect(server.notes).toEqual([]);
  });

  it('refuses an unknown server, and in replay a request whose Mcp-Method header contradicts its body', async () => {
    const proxy = await proxyWith({ mode: 'replay' });
    const unknown = await fetch(`${proxy.url}/mcp/nope`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /no MCP server named "nope" \(mcp.servers has notes\)/,
    );
    const mismatch = await fetch(`${proxy.url}/mcp/notes`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-method': 'tools/list',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{}}}',
    });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { code: number } }).error.code).toBe(-32001);
    await proxy.close();
  });

  describe('what the server sends on its own GET stream', () => {
    const own = join(folder, 'server-stream.sqlite');

    it('records the log line and the request to the client the server sent on its GET stream during a tool call', async () => {
      const recording = await proxyWith({ mode: 'record', cassette: own });
      const watched = await connectWatching(`${recording.url}/mcp/notes`, token);
      expect(await rootsAside(watched)).toEqual(rootsAsideAnswer);
      await recording.close();
      expect(watched.onServerStream).toEqual([rootsAsideLog, rootsAsideRequest]);
      expect(watched.rootsAsked()).toBe(1);

      const db = new Database(own, { readonly: true });
      const during = db
        .prepare("SELECT during FROM mcp_exchanges WHERE subject = 'roots_aside'")
        .pluck()
        .get() as string;
      db.close();
      expect(JSON.parse(during)).toEqual([
        { stream: 'standalone', message: rootsAsideLog },
        {
          stream: 'standalone',
          message: { ...rootsAsideRequest, id: expect.anything() as unknown },
        },
      ]);
    });

    it('replays them on the GET stream of a client that holds one open, the request awaited, with the server gone', async () => {
      const replaying = await proxyWith({
        mode: 'replay',
        cassette: own,
        mcp: { servers: { notes: 'http://127.0.0.1:9/mcp' } },
      });
      const watched = await connectWatching(`${replaying.url}/mcp/notes`, token);
      expect(await rootsAside(watched)).toEqual(rootsAsideAnswer);
      await replaying.close();
      expect(watched.onServerStream).toEqual([rootsAsideLog, rootsAsideRequest]);
      expect(watched.rootsAsked()).toBe(1);
      expect(replaying.stats.misses).toBe(0);
    });

    it('replays them on the POST’s stream to a client without a GET stream, so it still answers', async () => {
      const replaying = await proxyWith({
        mode: 'replay',
        cassette: own,
        mcp: { servers: { notes: 'http://127.0.0.1:9/mcp' } },
      });
      const watched = await connectWatching(`${replaying.url}/mcp/notes`, token, true);
      expect(await rootsAside(watched)).toEqual(rootsAsideAnswer);
      await replaying.close();
      expect(watched.onServerStream).toEqual([]);
      expect(watched.rootsAsked()).toBe(1);
    });

    it('answers a replayed GET for a session it never issued with 404, and a second GET of a session with 409', async () => {
      const replaying = await proxyWith({
        mode: 'replay',
        cassette: own,
        mcp: { servers: { notes: 'http://127.0.0.1:9/mcp' } },
      });
      const url = `${replaying.url}/mcp/notes`;
      const get = (session: string): Promise<Response> =>
        fetch(url, {
          headers: { accept: 'text/event-stream', 'mcp-session-id': session },
        });
      expect((await get('never-issued')).status).toBe(404);
      const watched = await connectWatching(url, token);
      const session = watched.transport.sessionId as string;
      expect((await get(session)).status).toBe(409);
      await rootsAside(watched);
      await replaying.close();
    });
  });
});
