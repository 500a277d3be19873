import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy } from '../support/test-proxy.js';
import { rawRequest, statusOf, upgradeRequest } from './raw-http.js';

let upstream: ScriptedUpstream;
let proxy: Awaited<ReturnType<typeof startTestProxy>>;
beforeAll(async () => {
  upstream = await startScriptedUpstream(() => ({ kind: 'json', body: { ok: true } }));
  proxy = await startTestProxy(`${upstream.url}/gateway`, { mode: 'passthrough' });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const post = (target: string): Promise<string> =>
  rawRequest(
    proxy.port,
    `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  );

describe('captured routes refuse absolute-form targets and .. segments', () => {
  it('answers 400 and forwards nothing upstream', async () => {
    for (const target of [
      'http://evil.example/v1/chat/completions',
      '/v1/../../admin',
      '/v1/%2e%2e/%2E%2E/admin',
      '/v1/./chat/completions',
      '/v1/chat%2fcompletions',
      '//evil.example/v1/models',
      '/s/x/v1/../../y',
    ]) {
      const answer = await post(target);
      expect(statusOf(answer), target).toBe(400);
      expect(answer, target).toContain('"type":"invalid_request_error"');
    }
    expect(statusOf(await rawRequest(proxy.port, upgradeRequest('/v1/../../ws')))).toBe(400);
    expect(upstream.received).toHaveLength(0);
    // An ordinary path still goes through, under the upstream's prefix.
    expect(statusOf(await post('/v1/models?x=1'))).toBe(200);
    expect(upstream.received.map((request) => request.url)).toEqual(['/gateway/v1/models?x=1']);
  });
});
