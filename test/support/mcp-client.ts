import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { cliPath, runCli } from './cli.js';

/** The compiled test server (test/support/mcp-test-server.ts). */
export const mcpTestServer = join(packageRoot, 'dist/test/support/mcp-test-server.js');

/** An SDK client connected over stdio, with what the launched process wrote to stderr. */
export interface ConnectedMcpClient {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Connects the official SDK client to `command` (the test server directly, or `calltape mcp …`
 * in front of it). The client offers roots, so the server can ask it a question back.
 */
export async function connectMcpClient(
  command: readonly string[],
  env: Record<string, string> = {},
): Promise<ConnectedMcpClient> {
  const [file, ...args] = command as [string, ...string[]];
  const transport = new StdioClientTransport({
    command: file,
    args,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe',
    cwd: packageRoot,
  });
  let stderr = '';
  transport.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const client = new Client(
    { name: 'calltape-test-agent', version: '0.0.1' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** `calltape mcp <args> -- <server…>` as a command line. */
export function viaCalltape(
  args: readonly string[],
  server: readonly string[] = [process.execPath, mcpTestServer],
): string[] {
  return [
    process.execPath,
    cliPath,
    'mcp',
    ...args,
    ...(server.length > 0 ? ['--', ...server] : []),
  ];
}

/**
 * One agent session against the notes server: every kind of request it answers, in a fixed
 * order, with `secret` as a credential in tool arguments. Progress notifications are relayed
 * (see mcp-relay-bytes.test.ts), but the SDK may resolve the call before it runs the progress
 * handler, so what a handler saw is not part of the answers.
 */
export async function notesSession(client: Client, secret: string): Promise<unknown[]> {
  return [
    client.getServerVersion(),
    client.getServerCapabilities(),
    await client.listTools(),
    await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, undefined, {
      onprogress: () => undefined,
    }),
    await client.callTool({ name: 'write_note', arguments: { text: 'buy milk', api_key: secret } }),
    await client.callTool({ name: 'write_note', arguments: { text: 'buy milk', api_key: secret } }),
    await client.callTool({ name: 'delete_everything', arguments: {} }),
    await client.callTool({ name: 'count_roots', arguments: {} }),
    await client.readResource({ uri: 'notes://readme' }),
    await client.getPrompt({ name: 'summarise', arguments: { topic: 'notes' } }),
  ];
}

/**
 * A tool that reports progress and a tool that asks the client for its roots: the answers, with
 * every message the client's transport received, in order (read off the transport, since the SDK
 * may settle a call before it runs that call's progress handler).
 */
export async function interimSession(client: Client, transport: Transport): Promise<unknown> {
  const received: unknown[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const { id: _id, ...rest } = message as { id?: unknown };
    received.push(rest);
    deliver?.(message, extra);
  };
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 5 } }, undefined, {
    onprogress: () => undefined,
  });
  const roots = await client.callTool({ name: 'count_roots', arguments: {} });
  return { sum, roots, received };
}

/** What `interimSession` sees from the server, live or replayed: progress (with the request's token), the answer, the request to the client, the answer. */
export const interimSessionSeen = {
  received: [
    {
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1, total: 1, message: 'added' },
    },
    { result: { structuredContent: { sum: 7 } } },
    { method: 'roots/list' },
    { result: { content: [{ type: 'text', text: '1 root(s)' }] } },
  ],
};

/** The tool calls of `notesSession` as `calltape calls --json` lists them: kind, server, tool, failed. */
export const notesSessionCalls = [
  ['mcp', 'notes', 'add', false],
  ['mcp', 'notes', 'write_note', false],
  ['mcp', 'notes', 'write_note', false],
  ['mcp', 'notes', 'delete_everything', true],
  ['mcp', 'notes', 'count_roots', false],
];

/** `calltape calls --cassette FILE --json`, each line as [kind, server, name, failed]. */
export function listedMcpCalls(cassette: string): unknown[][] {
  const listed = runCli(['calls', '--cassette', cassette, '--json']);
  if (listed.status !== 0)
    throw new Error(`calltape calls exited ${listed.status}: ${listed.stderr}`);
  return listed.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const call = JSON.parse(line) as Record<string, unknown>;
      return [call['kind'], call['server'], call['name'], call['failed']];
    });
}
