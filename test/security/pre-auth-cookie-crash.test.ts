import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { guardRequestListener, guardUpgradeListener, type ListenerKind } from '../../src/proxy/guard/guard-listeners.js';
import { startTestProxy } from '../support/test-proxy.js';
import { rawRequest, statusOf, upgradeRequest } from './raw-http.js';

const running: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const item of running) await item.close();
});

describe('pre-auth crash: a malformed percent-escape in the calltape_admin cookie', () => {
  it('answers the feed upgrade 401 and the process keeps serving', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', { mode: 'passthrough', admin: { ...defaultConfig.admin, token: 'admin-token-0123456789' } });
    running.push(proxy);
    const answer = await rawRequest(proxy.port, upgradeRequest('/calltape/feed', { Cookie: 'calltape_admin=%E0%A4%A' }));
    expect(statusOf(answer)).toBe(401);
    const page = await fetch(`${proxy.url}/calltape/api/state`, { headers: { cookie: 'calltape_admin=%zz' } });
    expect(page.status).toBe(401);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });
});

describe('every request and upgrade listener is guarded', () => {
  it('answers 400 for malformed input and 500 otherwise, logs and counts each, and stays up', async () => {
    const failures: { kind: ListenerKind; message: string }[] = [];
    const sink = (kind: ListenerKind, error: unknown, _request: IncomingMessage): void => void failures.push({ kind, message: (error as Error).message });
    const server: Server = createServer(
      guardRequestListener(async (request, response) => {
        if (request.url === '/sync') decodeURIComponent('%E0%A4%A');
        if (request.url === '/async') await Promise.reject(new Error('broken on purpose'));
        response.end('ok');
      }, sink),
    );
    server.on('upgrade', guardUpgradeListener(() => decodeURIComponent('%'), sink));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const { port } = server.address() as AddressInfo;
    expect(statusOf(await rawRequest(port, 'GET /sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toBe(400);
    expect(statusOf(await rawRequest(port, 'GET /async HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toBe(500);
    expect(statusOf(await rawRequest(port, upgradeRequest('/anything')))).toBe(400);
    expect(statusOf(await rawRequest(port, 'GET /fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toBe(200);
    expect(failures.map((failure) => failure.kind)).toEqual(['request', 'request', 'upgrade']);
  });

  it('counts escaped failures in calltape_listener_failures_total', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', { mode: 'passthrough' });
    running.push(proxy);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(metrics).toMatch(/# TYPE calltape_listener_failures_total counter/);
  });
});
