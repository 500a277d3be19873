import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { connectMcpClient, viaCalltape } from '../support/mcp-client.js';
import { temporaryFolder } from '../support/test-proxy.js';

const mocksYaml = `
mcp:
  notes:
    tools:
      - name: write_note
        description: Stores a note
        inputSchema: { type: object, properties: { text: { type: string } }, required: [text] }
      - name: delete_everything
        inputSchema: { type: object }
    mocks:
      - tool: write_note
        when:
          - arguments: { text: urgent }
            content: "stored urgently: {{args.text}}"
        otherwise:
          content: "stored: {{args.text}}"
          structuredContent: { id: 7 }
      - tool: delete_everything
        content: permission denied
        isError: true
`;

describe('calltape mcp with a mocks file', () => {
  const folder = temporaryFolder();
  const mocks = join(folder, 'notes-mocks.yaml');
  writeFileSync(mocks, mocksYaml);

  it('answers mocked tools itself while the real server answers the rest, and records both', async () => {
    const effects = join(folder, 'effects.txt');
    const cassette = join(folder, 'mocked.sqlite');
    const connected = await connectMcpClient(
      viaCalltape(['--name', 'notes', '--cassette', cassette, '--mocks', mocks]),
      { MCP_TEST_SIDE_EFFECTS: effects },
    );
    const note = await connected.client.callTool({
      name: 'write_note',
      arguments: { text: 'milk' },
    });
    const sum = await connected.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await connected.close();
    expect(note).toEqual({
      content: [{ type: 'text', text: 'stored: milk' }],
      structuredContent: { id: 7 },
    });
    expect(sum).toEqual({ content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } });
    expect(existsSync(effects) ? readFileSync(effects, 'utf8') : '').toBe('');
    const db = new Database(cassette, { readonly: true });
    const rows = db
      .prepare(
        "SELECT subject, mock_set FROM mcp_exchanges WHERE method = 'tools/call' ORDER BY seq",
      )
      .all();
    db.close();
    expect(rows).toEqual([
      { subject: 'write_note', mock_set: 'notes-mocks' },
      { subject: 'add', mock_set: null },
    ]);
  });

  it('diff mode relays to the live server and reports where its answers differ from the recording', async () => {
    // The recording holds the mock's answer; the real server answers write_note without structuredContent.
    const connected = await connectMcpClient(
      viaCalltape([
        '--name',
        'notes',
        '--cassette',
        join(folder, 'mocked.sqlite'),
        '--mode',
        'diff',
      ]),
      { MCP_TEST_SIDE_EFFECTS: join(folder, 'diff-effects.txt') },
    );
    expect(
      await connected.client.callTool({ name: 'write_note', arguments: { text: 'milk' } }),
    ).toEqual({ content: [{ type: 'text', text: 'stored: milk' }] });
    await connected.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await connected.close();
    expect(connected.stderr()).toMatch(
      /calltape mcp diff: tools\/call write_note on notes vs recording \S+:\n {2}result\.structuredContent: \{"id":7\} → \(absent\)/,
    );
    expect(connected.stderr()).not.toContain('tools/call add');
  });

  it('stands in for a server that is not there at all: initialize, tools/list, when matchers, isError', async () => {
    const connected = await connectMcpClient(
      viaCalltape(['--name', 'notes', '--mocks', mocks, '--mode', 'replay'], []),
    );
    expect(connected.client.getServerCapabilities()).toEqual({ tools: {} });
    const listed = await connected.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['write_note', 'delete_everything']);
    expect(
      await connected.client.callTool({ name: 'write_note', arguments: { text: 'urgent' } }),
    ).toEqual({ content: [{ type: 'text', text: 'stored urgently: urgent' }] });
    expect(await connected.client.callTool({ name: 'delete_everything', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'permission denied' }],
      isError: true,
    });
    await expect(
      connected.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }),
    ).rejects.toThrow(/no recording of tools\/call add on notes/);
    await connected.close();
  });

  it('rejects a mocks file naming the file and the field, exit 2', () => {
    const bad = join(folder, 'bad.yaml');
    writeFileSync(
      bad,
      'mcp:\n  notes:\n    mocks:\n      - tool: write_note\n        contnet: oops\n',
    );
    const result = runCli(['mcp', '--name', 'notes', '--mocks', bad]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${bad}: mcp.notes.mocks[0].contnet: unknown field`);
  });
});
