import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { cliPath } from './cli.js';

/** The compiled test server (test/support/mcp-test-server.ts). */
export const mcpTestServer = join(packageRoot, 'dist/test/support/mcp-test-server.js');

/** An SDK client connected over stdio, with what the launched process wrote to stderr. */
export interface ConnectedMcpClient {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Connects the official SDK client to `command` (the test server directly, or `calltape mcp …`
 * in front of it). The client offers roots, so the server can ask it a question back.
 */
export async function connectMcpClient(command: readonly string[], env: Record<string, string> = {}): Promise<ConnectedMcpClient> {
  const [file, ...args] = command as [string, ...string[]];
  const transport = new StdioClientTransport({ command: file, args, env: { PATH: process.env['PATH'] ?? '', ...env }, stderr: 'pipe', cwd: packageRoot });
  let stderr = '';
  transport.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const client = new Client({ name: 'calltape-test-agent', version: '0.0.1' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** `calltape mcp <args> -- <server…>` as a command line. */
export function viaCalltape(args: readonly string[], server: readonly string[] = [process.execPath, mcpTestServer]): string[] {
  return [process.execPath, cliPath, 'mcp', ...args, ...(server.length > 0 ? ['--', ...server] : [])];
}
