import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpCallReporter } from './mcp-call-reporter.js';
import type { ReportedMcpCall } from './mcp-call-report.js';

const call = (n: number): ReportedMcpCall => ({
  id: `call-${n}`,
  sessionId: 's',
  sessionGiven: true,
  startedAt: n,
  server: 'notes',
  subject: 'add',
  params: { name: 'add', arguments: { n } },
  result: { content: [] },
  error: undefined,
});

/** A proxy stand-in: each post is handed to `answer`; the ids it received, in order. */
async function fakeProxy(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      for (const item of (JSON.parse(body) as { calls: { id: string }[] }).calls)
        received.push(item.id);
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closing.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url, received };
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe('McpCallReporter', () => {
  it('keeps at most maxQueued calls while a post is under way, dropping the oldest', async () => {
    let release: (() => void) | undefined;
    const proxy = await fakeProxy((_request, response) => {
      const done = (): void => void response.writeHead(202).end('{}');
      if (release === undefined) release = done;
      else done();
    });
    const logs: string[] = [];
    const reporter = new McpCallReporter({
      proxyUrl: `${proxy.url}/v1`,
      token: 'admin-token-0123456789',
      log: (message) => logs.push(message),
      maxQueued: 2,
    });
    reporter.report(call(1));
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let n = 2; n <= 6; n++) reporter.report(call(n));
    release();
    await reporter.close(5_000);
    expect(proxy.received).toEqual(['call-1', 'call-5', 'call-6']);
    expect(reporter.delivered).toBe(3);
    expect(reporter.lost).toBe(3);
    expect(logs).toEqual([
      'calltape mcp: 3 tool call(s) were not reported to ' + new URL(proxy.url).origin,
    ]);
  });

  it('says once that it cannot report, and once that it reports again', async () => {
    const statuses = [503, 503, 202, 202];
    const proxy = await fakeProxy((request, response) => {
      expect(request.headers.authorization).toBe('Bearer admin-token-0123456789');
      expect(request.url).toBe('/calltape/api/mcp-calls');
      response.writeHead(statuses.shift() ?? 202).end('{"error":{"message":"busy"}}');
    });
    const logs: string[] = [];
    const reporter = new McpCallReporter({
      proxyUrl: proxy.url,
      token: 'admin-token-0123456789',
      log: (message) => logs.push(message),
      retryMs: 0,
    });
    for (let n = 1; n <= 4; n++) {
      reporter.report(call(n));
      // One post per call: wait until the proxy has seen it.
      while (proxy.received.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await reporter.close(5_000);
    expect(logs).toEqual([
      expect.stringContaining('cannot report tool calls to http://127.0.0.1:'),
      expect.stringContaining('reporting tool calls to http://127.0.0.1:'),
      'calltape mcp: 2 tool call(s) were not reported to ' + new URL(proxy.url).origin,
    ]);
    expect(logs[0]).toContain('HTTP 503 (busy)');
    expect(reporter.delivered).toBe(2);
  });
});
