/**
 * The MCP server of the MCP tests, built on the official SDK: `add` (pure, reports progress
 * when asked), `write_note` (a side effect: `onNote` counts real invocations), `delete_everything`
 * (always fails with isError), `count_roots` (asks the client a server-to-client request),
 * `roots_aside` (logs and asks the same on the server's own stream, tied to no request), a
 * resource and a prompt. Served over stdio (mcp-test-server.ts) and Streamable HTTP
 * (mcp-http-server.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function notesMcpServer(onNote: (text: string) => void): McpServer {
  const server = new McpServer(
    { name: 'notes-server', version: '1.2.3' },
    { capabilities: { logging: {} } },
  );

  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }, extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: 1, total: 1, message: 'added' },
        });
      return {
        content: [{ type: 'text', text: String(a + b) }],
        structuredContent: { sum: a + b },
      };
    },
  );

  server.registerTool(
    'write_note',
    {
      description: 'Stores a note (a side effect)',
      inputSchema: { text: z.string(), api_key: z.string().optional() },
    },
    ({ text }) => {
      onNote(text);
      return { content: [{ type: 'text', text: `stored: ${text}` }] };
    },
  );

  // Over HTTP with an event store, the answer goes out after its stream was closed: the client must resume (Last-Event-ID) to get it.
  server.registerTool(
    'add_later',
    {
      description: 'Adds two numbers, answering on a resumed stream',
      inputSchema: { a: z.number(), b: z.number() },
    },
    ({ a, b }, extra) => {
      extra.closeSSEStream?.();
      return { content: [{ type: 'text', text: String(a + b) }] };
    },
  );

  server.registerTool(
    'delete_everything',
    { description: 'Always refuses', inputSchema: {} },
    () => ({ content: [{ type: 'text', text: 'permission denied' }], isError: true }),
  );

  server.registerTool(
    'count_roots',
    { description: 'Counts the client roots', inputSchema: {} },
    async (_args, extra) => {
      const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
      return { content: [{ type: 'text', text: `${roots.roots.length} root(s)` }] };
    },
  );

  // Tied to no request: over HTTP both go on the server's own (GET) stream.
  server.registerTool(
    'roots_aside',
    {
      description: 'Logs, then asks the client for its roots, on the server stream',
      inputSchema: {},
    },
    async () => {
      await server.server.notification({
        method: 'notifications/message',
        params: { level: 'info', data: 'asking for roots' },
      });
      const roots = await server.server.listRoots();
      return { content: [{ type: 'text', text: `${roots.roots.length} root(s), asked aside` }] };
    },
  );

  server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, text: 'The notes server.' }],
  }));

  server.registerPrompt('summarise', { argsSchema: { topic: z.string() } }, ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }],
  }));
  return server;
}
