/**
 * The notes server (notes-mcp-server.ts) over stdio: `write_note` appends a line to
 * $MCP_TEST_SIDE_EFFECTS, so a test can count real invocations. It logs one line to stderr at
 * start, so tests can see stderr forwarded.
 */
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { notesMcpServer } from './notes-mcp-server.js';

const server = notesMcpServer((text) => {
  const file = process.env['MCP_TEST_SIDE_EFFECTS'];
  if (file) appendFileSync(file, `${text}\n`);
});

process.stderr.write('notes-server: ready\n');
await server.connect(new StdioServerTransport());
