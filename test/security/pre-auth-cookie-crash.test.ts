import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { errorShapeFor } from '../../src/proxy/guard/error-shape-for.js';
import {
  guardRequestListener,
  guardUpgradeListener,
  type ListenerKind,
} from '../../src/proxy/guard/guard-listeners.js';
import { startTestProxy } from '../support/test-proxy.js';
import { rawRequest, statusOf, upgradeRequest } from './raw-http.js';

const running: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const item of running) await item.close();
});

describe('pre-auth crash: a malformed percent-escape in the calltape_admin cookie', () => {
  it('answers the feed upgrade 401 and the process keeps serving', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      admin: { ...defaultConfig.admin, token: 'admin-token-0123456789' },
    });
    running.push(proxy);
    const answer = await rawRequest(
      proxy.port,
      upgradeRequest('/calltape/feed', { Cookie: 'calltape_admin=%E0%A4%A' }),
    );
    expect(statusOf(answer)).toBe(401);
    const page = await fetch(`${proxy.url}/calltape/api/state`, {
      headers: { cookie: 'calltape_admin=%zz' },
    });
    expect(page.status).toBe(401);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });
});

describe('every request and upgrade listener is guarded', () => {
  /** A server whose listeners fail as the path says: `/sync…` on a bad escape (malformed input), `/async…` on a rejection. */
  async function failingServer(): Promise<{
    port: number;
    failures: { kind: ListenerKind; message: string }[];
  }> {
    const failures: { kind: ListenerKind; message: string }[] = [];
    const guard = {
      onFailure: (kind: ListenerKind, error: unknown, _request: IncomingMessage): void =>
        void failures.push({ kind, message: (error as Error).message }),
      errorShape: errorShapeFor,
    };
    const server: Server = createServer(
      guardRequestListener(async (request, response) => {
        if (request.url?.includes('/sync')) decodeURIComponent('%E0%A4%A');
        if (request.url?.includes('/async')) await Promise.reject(new Error('broken on purpose'));
        response.end('ok');
      }, guard),
    );
    server.on(
      'upgrade',
      guardUpgradeListener(() => decodeURIComponent('%'), guard),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    return { port: (server.address() as AddressInfo).port, failures };
  }

  it('answers 400 for malformed input and 500 otherwise, logs and counts each, and stays up', async () => {
    const { port, failures } = await failingServer();
    expect(
      statusOf(
        await rawRequest(port, 'GET /sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ),
    ).toBe(400);
    expect(
      statusOf(
        await rawRequest(port, 'GET /async HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ),
    ).toBe(500);
    expect(statusOf(await rawRequest(port, upgradeRequest('/anything')))).toBe(400);
    expect(
      statusOf(
        await rawRequest(port, 'GET /fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ),
    ).toBe(200);
    expect(failures.map((failure) => failure.kind)).toEqual(['request', 'request', 'upgrade']);
  });

  it('answers a failed listener in the provider error shape of the route, so the agent SDK raises its own typed error', async () => {
    const { port } = await failingServer();
    const anthropic = new Anthropic({
      apiKey: 'sk-ant-x',
      baseURL: `http://127.0.0.1:${port}/sync`,
      maxRetries: 0,
    });
    const anthropicFailure = await anthropic.messages
      .create({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(anthropicFailure).toBeInstanceOf(Anthropic.BadRequestError);
    expect((anthropicFailure as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'calltape: the request could not be read' },
    });
    const openai = new OpenAI({
      apiKey: 'sk-x',
      baseURL: `http://127.0.0.1:${port}/async/v1`,
      maxRetries: 0,
    });
    const openaiFailure = await openai.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(openaiFailure).toBeInstanceOf(OpenAI.InternalServerError);
    expect(openaiFailure).toMatchObject({
      status: 500,
      code: 'listener_failed',
      type: 'calltape_error',
    });
    // An Anthropic client's upgrade gets Anthropic's envelope too.
    const upgrade = await rawRequest(
      port,
      upgradeRequest('/v1/anything', { 'anthropic-version': '2023-06-01' }),
    );
    expect(JSON.parse(upgrade.slice(upgrade.indexOf('\r\n\r\n') + 4))).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'calltape: the request could not be read' },
    });
  });

  it('counts escaped failures in calltape_listener_failures_total', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:9', { mode: 'passthrough' });
    running.push(proxy);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(metrics).toMatch(/# TYPE calltape_listener_failures_total counter/);
  });
});
