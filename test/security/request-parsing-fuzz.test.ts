import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy } from '../support/test-proxy.js';
import { rawRequest, statusOf } from './raw-http.js';

let upstream: ScriptedUpstream;
let proxy: Awaited<ReturnType<typeof startTestProxy>>;
beforeAll(async () => {
  upstream = await startScriptedUpstream(() => ({ kind: 'json', body: { ok: true } }));
  proxy = await startTestProxy(upstream.url, {
    mode: 'record',
    admin: { ...defaultConfig.admin, token: 'admin-token-0123456789' },
    cassettes: { ...defaultConfig.cassettes, allowRequestOverride: true },
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

/** Characters a header value may carry on the wire (no CR/LF), percent signs and escapes well represented. */
const headerText = fc.string({
  unit: fc.constantFrom(...'%25E0A4zZ;=,/\\.:"\' \t<>?&#@~^`{}|[]éー'.split('')),
  maxLength: 40,
});
const segment = fc.oneof(
  fc.constantFrom(
    'v1',
    'chat',
    'completions',
    'responses',
    'messages',
    'calltape',
    'feed',
    'api',
    'state',
    'metrics',
    'healthz',
    'c',
    's',
    '..',
    '.',
    '',
    '%',
    '%zz',
    '%2e%2e',
    '%E0%A4%A',
    'x:record',
    'calltape-shadow:replay',
  ),
  headerText.map((text) => encodeURI(text).replace(/%25/g, '%')),
);
const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
const target = fc.oneof(
  path,
  path.map((p) => `${p}?token=${'%'}&session=%E0`),
  fc.constantFrom(
    '*',
    'http://x/v1/models',
    '//',
    '/%',
    '/?',
    '/calltape/feed',
    '/calltape/feed?token=%',
    '/calltape/api/state',
    '/calltape',
    '/metrics',
    '/c/%E0%A4%A/v1/chat/completions',
  ),
);

describe('fuzz: request path, cookie and header parsing', () => {
  it('whatever the target, cookie and headers, the process stays up and answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT'),
        target,
        headerText,
        fc.record(
          { session: headerText, authorization: headerText, origin: headerText, host: headerText },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        async (method, requestTarget, cookie, headers, upgrade) => {
          const lines = [
            `${method} ${requestTarget} HTTP/1.1`,
            `Host: ${headers.host ?? '127.0.0.1'}`,
            `Cookie: calltape_admin=${cookie}`,
            'Connection: close',
          ];
          if (headers.session !== undefined) lines.push(`x-calltape-session: ${headers.session}`);
          if (headers.authorization !== undefined)
            lines.push(`Authorization: ${headers.authorization}`);
          if (headers.origin !== undefined) lines.push(`Origin: ${headers.origin}`);
          if (upgrade)
            lines.push(
              'Upgrade: websocket',
              'Connection: Upgrade',
              'Sec-WebSocket-Version: 13',
              'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
            );
          else if (method === 'POST')
            lines.push('Content-Type: application/json', 'Content-Length: 2');
          await rawRequest(
            proxy.port,
            `${lines.join('\r\n')}\r\n\r\n${method === 'POST' && !upgrade ? '{}' : ''}`,
          );
          // The probe may be refused in any way; the proxy must still answer the next caller.
          expect(
            statusOf(
              await rawRequest(
                proxy.port,
                'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
              ),
            ),
          ).toBe(200);
        },
      ),
      { numRuns: 150 },
    );
  });
});
