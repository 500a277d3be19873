import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformanceHttpServer } from '../support/conformance-http-server.js';
import type { McpHttpHost } from '../support/mcp-http-host.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

/** What the `tools-call-with-logging` scenario does: set a level, call the tool, watch the log. */
async function loggingCall(url: string): Promise<{ logged: unknown[]; result: unknown }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'calltape-conformance-agent', version: '0.0.1' });
  const logged: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logged.push(notification.params.data);
  });
  await client.connect(transport);
  try {
    await client.setLoggingLevel('debug');
    const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    return { logged, result };
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

// Regressions the conformance suite (npm run conformance, docs/mcp-conformance.md) found.
describe('/mcp/<name> against the conformance target', () => {
  const folder = temporaryFolder();
  let server: McpHttpHost;
  beforeAll(async () => {
    server = await startConformanceHttpServer();
  });
  afterAll(() => server.close());

  it('conformance tools-call-with-logging: replays the log lines a tool sent on its POST’s stream', async () => {
    const cassette = join(folder, 'logging.sqlite');
    const direct = await loggingCall(server.url);
    expect(direct.logged).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    const recording = await startTestProxy('http://127.0.0.1:9', {
      cassette,
      mode: 'record',
      mcp: { servers: { everything: server.url } },
    });
    const recorded = await loggingCall(`${recording.url}/mcp/everything`);
    await recording.close();
    expect(recorded).toEqual(direct);
    const replaying = await startTestProxy('http://127.0.0.1:9', {
      cassette,
      mode: 'replay',
      mcp: { servers: { everything: 'http://127.0.0.1:9/mcp' } },
    });
    const replayed = await loggingCall(`${replaying.url}/mcp/everything`);
    await replaying.close();
    expect(replayed).toEqual(direct);
    expect(replaying.stats.misses).toBe(0);
  });

  it('conformance dns-rebinding-protection: in replay calltape, standing in for the server, refuses a browser on a foreign Host', async () => {
    const replaying = await startTestProxy('http://127.0.0.1:9', {
      cassette: join(folder, 'logging.sqlite'),
      mode: 'replay',
      mcp: { servers: { everything: 'http://127.0.0.1:9/mcp' } },
    });
    const { port } = new URL(replaying.url);
    const initialize = (host: string, origin?: string) =>
      post(`${replaying.url}/mcp/everything`, {
        host,
        ...(origin === undefined ? {} : { origin }),
      });
    const rebound = await initialize('evil.example.com', 'http://evil.example.com');
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('DNS rebinding protection');
    expect((await initialize(`localhost:${port}`, `http://localhost:${port}`)).status).toBe(200);
    // An agent's SDK sends no Origin: reaching the proxy by a service name stays allowed.
    expect((await initialize(`calltape:${port}`)).status).toBe(200);
    await replaying.close();
  });
});

/** An initialize POST with the given Host and Origin (fetch may not set Host; node:http may). */
function post(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'rebinding-check', version: '0.0.1' },
    },
  });
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
