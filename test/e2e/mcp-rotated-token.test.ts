import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { McpStore, type StoredMcpExchange } from '../../src/mcp/mcp-store.js';
import { hostMcpOverHttp, type McpHttpHost } from '../support/mcp-http-host.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const firstToken = 'oauth-access-first-0123456789abcdef';
const rotatedToken = 'oauth-access-rotated-9876543210fedcba';

/**
 * A server that echoes the bearer token of the request it is answering: `whoami` as text, and
 * `whoami_key` as the key of its structured content, where redaction (which rewrites values,
 * never keys) cannot reach it, so only the last check before the store and the export can.
 */
function echoingServer(): McpServer {
  const server = new McpServer({ name: 'echo-server', version: '1.0.0' });
  const tokenOf = (headers: Record<string, unknown> | undefined): string =>
    String(headers?.['authorization'] ?? '').replace(/^Bearer /, '');
  server.registerTool('whoami', { description: 'Echoes the caller token' }, (extra) => ({
    content: [{ type: 'text', text: `you are ${tokenOf(extra.requestInfo?.headers)}` }],
  }));
  server.registerTool('whoami_key', { description: 'Echoes the token as a key' }, (extra) => ({
    content: [{ type: 'text', text: 'see structured content' }],
    structuredContent: { [tokenOf(extra.requestInfo?.headers)]: true },
  }));
  return server;
}

let host: McpHttpHost;
let receiver: OtlpReceiver;
const cassette = join(temporaryFolder(), 'mcp-rotated.sqlite');
const errors: string[] = [];
let stored: StoredMcpExchange[];

/** One MCP session through `/mcp/echo` whose bearer token rotates after the first call (an OAuth refresh). */
beforeAll(async () => {
  [host, receiver] = await Promise.all([
    hostMcpOverHttp(echoingServer, () => false),
    startOtlpReceiver(),
  ]);
  const proxy = await startTestProxy(
    'http://127.0.0.1:9',
    { mode: 'record', cassette, mcp: { servers: { echo: host.url } } },
    {
      logger: createLogger('error', (line) => errors.push(line)),
      otlp: { url: `${receiver.url}/v1/traces`, protocol: 'http/json', captureContent: true },
    },
  );
  let token = firstToken;
  const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp/echo`), {
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(url, { ...init, headers });
    },
  });
  const client = new Client({ name: 'rotating-agent', version: '0.0.1' });
  await client.connect(transport);
  await client.callTool({ name: 'whoami', arguments: {} });
  token = rotatedToken;
  await client.callTool({ name: 'whoami', arguments: {} });
  await client.callTool({ name: 'whoami_key', arguments: {} });
  await transport.terminateSession();
  await client.close();
  await proxy.close();
  const store = new McpStore(cassette, { readonly: true });
  stored = store.list();
  store.close();
}, 30_000);
afterAll(async () => {
  await Promise.all([host.close(), receiver.close()]);
});

describe('an MCP session whose token rotates', () => {
  it('redacts the rotated token the server echoes in the cassette', () => {
    const calls = stored.filter((exchange) => exchange.subject === 'whoami');
    expect(calls.map((exchange) => JSON.stringify(exchange.result))).toEqual([
      expect.stringContaining('you are [REDACTED:credential]'),
      expect.stringContaining('you are [REDACTED:credential]'),
    ]);
    const file = readFileSync(cassette);
    expect(file.includes(firstToken)).toBe(false);
    expect(file.includes(rotatedToken)).toBe(false);
  });

  it('redacts the rotated token the server echoes in the OTLP export', () => {
    const exported = receiver.requests.map((request) => request.body.toString('utf8')).join('\n');
    expect(exported).toContain('[REDACTED:credential]');
    expect(exported).not.toContain(firstToken);
    expect(exported).not.toContain(rotatedToken);
  });

  it('refuses to store or export an exchange still holding a session credential after redaction', () => {
    expect(stored.some((exchange) => exchange.subject === 'whoami_key')).toBe(false);
    expect(errors.join('\n')).toContain(
      'the tools/call exchange of MCP server echo was not recorded or exported',
    );
    expect(errors.join('\n')).not.toContain(rotatedToken);
  });
});
