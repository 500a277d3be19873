import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  connectMcpClient,
  interimSession,
  interimSessionSeen,
  mcpTestServer,
  listedMcpCalls,
  notesSession,
  notesSessionCalls,
  viaCalltape,
} from '../support/mcp-client.js';
import { temporaryFolder } from '../support/test-proxy.js';

const secret = 'sk-live-notes-0123456789abcdef';

function sideEffects(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

async function run(
  command: readonly string[],
  env: Record<string, string>,
): Promise<{ answers: unknown[]; stderr: string }> {
  const connected = await connectMcpClient(command, env);
  try {
    return { answers: await notesSession(connected.client, secret), stderr: connected.stderr() };
  } finally {
    await connected.close();
  }
}

describe('calltape mcp (stdio) with the official MCP SDK', () => {
  const folder = temporaryFolder();
  const cassette = join(folder, 'notes.sqlite');
  const effects = join(folder, 'side-effects.txt');
  let recordedAnswers: unknown[] = [];

  it('relays a session unchanged, records it, and replays it with the server absent', async () => {
    const direct = await run([process.execPath, mcpTestServer], { MCP_TEST_SIDE_EFFECTS: effects });
    writeFileSync(effects, '');

    const recorded = await run(
      viaCalltape(['--name', 'notes', '--cassette', cassette, '--mode', 'record']),
      { MCP_TEST_SIDE_EFFECTS: effects },
    );
    expect(recorded.answers).toEqual(direct.answers);
    recordedAnswers = recorded.answers;
    expect(recorded.stderr).toContain('notes-server: ready');
    expect(sideEffects(effects)).toBe(2);

    writeFileSync(effects, '');
    const before = readFileSync(cassette);
    // The server command does not even exist: replay must not start it.
    const replayed = await run(
      viaCalltape(
        ['--name', 'notes', '--cassette', cassette, '--mode', 'replay'],
        ['/nonexistent/notes-server'],
      ),
      { MCP_TEST_SIDE_EFFECTS: effects },
    );
    expect(sideEffects(effects)).toBe(0);
    expect(replayed.answers).toEqual(recorded.answers);
    expect(readFileSync(cassette).equals(before)).toBe(true);
  });

  it('auto mode replays a server the cassette holds, without starting it', async () => {
    const before = readFileSync(cassette);
    const replayed = await run(
      viaCalltape(
        ['--name', 'notes', '--cassette', cassette, '--mode', 'auto'],
        ['/nonexistent/notes-server'],
      ),
      {},
    );
    expect(replayed.answers).toEqual(recordedAnswers);
    expect(replayed.stderr).not.toContain('CASSETTE_MISS');
    expect(readFileSync(cassette).equals(before)).toBe(true);
  });

  it('never stores a credential passed in tool arguments', () => {
    const db = new Database(cassette, { readonly: true });
    const rows = db
      .prepare("SELECT params FROM mcp_exchanges WHERE subject = 'write_note'")
      .pluck()
      .all() as string[];
    db.close();
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(JSON.parse(row)).toEqual({
        name: 'write_note',
        arguments: { text: 'buy milk', api_key: 'REDACTED' },
      });
    for (const file of [cassette, `${cassette}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(secret)).toBe(false);
  });

  it('answers a replay miss with an MCP error naming the first difference, and reports it on stderr', async () => {
    const connected = await connectMcpClient(
      viaCalltape(['--name', 'notes', '--cassette', cassette, '--mode', 'replay'], []),
    );
    await expect(
      connected.client.callTool({ name: 'add', arguments: { a: 2, b: 4 } }),
    ).rejects.toThrow(/differs first at arguments\.b: 3 → 4/);
    await connected.client.callTool({
      name: 'write_note',
      arguments: { text: 'buy milk', api_key: 'another key' },
    });
    await connected.client.callTool({
      name: 'write_note',
      arguments: { text: 'buy milk', api_key: 'another key' },
    });
    await expect(
      connected.client.callTool({
        name: 'write_note',
        arguments: { text: 'buy milk', api_key: 'x' },
      }),
    ).rejects.toThrow(/recorded 2 time\(s\); this is call 3/);
    await expect(connected.client.callTool({ name: 'search', arguments: {} })).rejects.toThrow(
      /no recording of tools\/call search on notes/,
    );
    await connected.close();
    expect(connected.stderr()).toContain(
      'CASSETTE_MISS: calltape replay: no recording of tools/call add on notes',
    );
  });

  it('lists the MCP calls with their server', () => {
    expect(listedMcpCalls(cassette)).toEqual(notesSessionCalls);
    const table = runCli(['calls', '--cassette', cassette]);
    expect(table.stdout).toContain('5 MCP tool call(s)');
    expect(table.stdout).toContain('isError');
    // Regression: a cassette of MCP calls alone listed as empty, its calls under "no tool calls captured".
    expect(table.stdout).not.toContain('no tool calls captured');
    const listed = runCli(['cassettes', 'ls', '--dir', dirname(cassette)]);
    expect(listed.stdout).toMatch(/notes\s*│\s*0\s*│\s*0\s*│\s*0\s*│\s*\d+\s*│\s*\d{4}-/);
  });

  it('regression: redact.builtinPatterns false keeps key-shaped text in MCP params (the relay honoured only headers and patterns)', async () => {
    const config = join(folder, 'no-builtins.config.json');
    writeFileSync(config, JSON.stringify({ redact: { builtinPatterns: false } }));
    const own = join(folder, 'no-builtins.sqlite');
    const keyShaped = 'sk-proj-notakeyjustsometext0123';
    const connected = await connectMcpClient(
      viaCalltape(['--name', 'notes', '--cassette', own, '--mode', 'record', '--config', config]),
      { MCP_TEST_SIDE_EFFECTS: effects },
    );
    await connected.client.callTool({ name: 'write_note', arguments: { text: keyShaped } });
    await connected.close();
    const db = new Database(own, { readonly: true });
    const params = db
      .prepare("SELECT params FROM mcp_exchanges WHERE subject = 'write_note'")
      .pluck()
      .get() as string;
    db.close();
    expect(JSON.parse(params)).toEqual({ name: 'write_note', arguments: { text: keyShaped } });
  });

  it('replays the progress a tool reported and the request it made to the client, in order, with the client’s own ids', async () => {
    const own = join(folder, 'interim.sqlite');
    const session = async (command: readonly string[]) => {
      const connected = await connectMcpClient(command, { MCP_TEST_SIDE_EFFECTS: effects });
      const answers = await interimSession(connected.client, connected.transport);
      await connected.close();
      return answers;
    };
    const recorded = await session(
      viaCalltape(['--name', 'notes', '--cassette', own, '--mode', 'record']),
    );
    expect(recorded).toMatchObject(interimSessionSeen);
    const replayed = await session(
      viaCalltape(
        ['--name', 'notes', '--cassette', own, '--mode', 'replay'],
        ['/nonexistent/notes-server'],
      ),
    );
    expect(replayed).toEqual(recorded);
  });
});
