import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { startTestProxy } from '../support/test-proxy.js';
import { rawRequest, statusOf, upgradeRequest } from './raw-http.js';

type Proxy = Awaited<ReturnType<typeof startTestProxy>>;
let open: Proxy;
let guarded: Proxy;
beforeAll(async () => {
  open = await startTestProxy('http://127.0.0.1:9', { mode: 'passthrough' });
  guarded = await startTestProxy('http://127.0.0.1:9', {
    mode: 'passthrough',
    admin: {
      ...defaultConfig.admin,
      token: 'admin-token-0123456789',
      allowedHosts: ['calltape.internal'],
    },
  });
});
afterAll(async () => {
  await open.close();
  await guarded.close();
});

const get = (proxy: Proxy, path: string, host: string): Promise<string> =>
  rawRequest(proxy.port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

describe('admin surfaces and browsers', () => {
  it('DNS rebinding: refuses admin routes whose Host is a foreign name (421), keeps loopback names and IP literals', async () => {
    for (const path of ['/calltape/api/v1/staging', '/metrics', '/calltape/api/state']) {
      expect(statusOf(await get(open, path, 'evil.example:80')), path).toBe(421);
      expect(statusOf(await get(open, path, `127.0.0.1:${open.port}`)), path).toBe(200);
      expect(statusOf(await get(open, path, `localhost:${open.port}`)), path).toBe(200);
    }
    expect(
      statusOf(
        await rawRequest(
          open.port,
          upgradeRequest('/calltape/feed').replace('Host: 127.0.0.1', 'Host: evil.example'),
        ),
      ),
    ).toBe(421);
    // Configured names pass; anything else still does not, token or not.
    expect(
      statusOf(
        await rawRequest(
          guarded.port,
          'GET /metrics HTTP/1.1\r\nHost: calltape.internal\r\nAuthorization: Bearer admin-token-0123456789\r\nConnection: close\r\n\r\n',
        ),
      ),
    ).toBe(200);
    expect(
      statusOf(
        await rawRequest(
          guarded.port,
          'GET /metrics HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer admin-token-0123456789\r\nConnection: close\r\n\r\n',
        ),
      ),
    ).toBe(421);
    // Agent routes are not admin routes: any Host reaches them.
    expect(statusOf(await get(open, '/healthz', 'evil.example'))).toBe(200);
  });

  it('cross-origin feed: refuses a WebSocket upgrade whose Origin is not the proxy own (403)', async () => {
    const host = `127.0.0.1:${open.port}`;
    const upgrade = (origin?: string): string =>
      upgradeRequest('/calltape/feed', origin ? { Origin: origin } : {}).replace(
        'Host: 127.0.0.1',
        `Host: ${host}`,
      );
    expect(statusOf(await rawRequest(open.port, upgrade('https://evil.example')))).toBe(403);
    expect(statusOf(await rawRequest(open.port, upgrade('null')))).toBe(403);
    expect(statusOf(await rawRequest(open.port, upgrade(`http://${host}`)))).toBe(101);
    expect(statusOf(await rawRequest(open.port, upgrade()))).toBe(101);
  });

  it('sends Referrer-Policy: no-referrer, redirects /calltape to /calltape/, and strips ?token= after setting the cookie', async () => {
    const page = await fetch(`${open.url}/calltape/`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const bare = await fetch(`${open.url}/calltape`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/calltape/']);
    const withToken = await fetch(
      `${guarded.url}/calltape/?token=admin-token-0123456789&session=s1`,
      { redirect: 'manual' },
    );
    expect([
      withToken.status,
      withToken.headers.get('location'),
      withToken.headers.get('referrer-policy'),
    ]).toEqual([303, '/calltape/?session=s1', 'no-referrer']);
    expect(withToken.headers.get('set-cookie')).toContain(
      'calltape_admin=admin-token-0123456789; Path=/calltape; HttpOnly; SameSite=Strict',
    );
  });
});
