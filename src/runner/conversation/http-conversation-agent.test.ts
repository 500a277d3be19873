import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpConversationAgent } from './http-conversation-agent.js';

type Handler = (
  body: Record<string, unknown>,
  request: IncomingMessage,
  response: ServerResponse,
) => void;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** An agent served on a loopback port chosen by the OS; `handle` answers each turn. */
async function serve(handle: Handler): Promise<string> {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => handle(JSON.parse(text) as Record<string, unknown>, request, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/turn`;
}

const start = {
  case: 'refund',
  session: 'refund',
  base_urls: { openai: 'http://127.0.0.1:9/s/refund/v1', anthropic: 'http://127.0.0.1:9/s/refund' },
};
const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const agentAt = (url: string, turnTimeoutMs = 20_000) =>
  httpConversationAgent({ url, start, turnTimeoutMs, timeoutMs: 25_000 });

describe('httpConversationAgent: the HTTP protocol', () => {
  it('POSTs each turn with the protocol version, case, session and base URLs, and the session header', async () => {
    const seen: unknown[] = [];
    const url = await serve((body, request, response) => {
      seen.push({ ...body, header: request.headers['x-calltape-session'], method: request.method });
      json(
        response,
        200,
        body['turn'] === 2 ? { text: 'Refunded.', end: true } : { text: 'Which order?' },
      );
    });
    const agent = agentAt(url);
    expect(await agent.say({ index: 1, text: 'refund please' })).toEqual({ text: 'Which order?' });
    expect(await agent.say({ index: 2, text: 'A-17' })).toEqual({ text: 'Refunded.', ended: true });
    expect(await agent.say({ index: 3, text: 'thanks' })).toEqual({ text: null, ended: true });
    await agent.close();
    expect(seen).toEqual([
      { protocol: 1, ...start, turn: 1, text: 'refund please', header: 'refund', method: 'POST' },
      { protocol: 1, ...start, turn: 2, text: 'A-17', header: 'refund', method: 'POST' },
    ]);
  });

  it('names the url and says to start the agent when nothing listens there', async () => {
    const url = await serve(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    const reply = await agentAt(url).say({ index: 1, text: 'hi' });
    expect(reply.error).toBe(
      `cannot reach the agent at ${url}: connection refused. Start the agent first (it must listen there), then run calltape test again`,
    );
  });

  it('gives a per-turn error for an error status, a body that is not an answer, and one over 1 MiB', async () => {
    const url = await serve((body, _request, response) => {
      if (body['turn'] === 1) response.writeHead(500).end('KeyError: session');
      else if (body['turn'] === 2) json(response, 200, { reply: 'hi' });
      else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"text":"${'x'.repeat(2 * 1024 * 1024)}"}`);
      }
    });
    const agent = agentAt(url);
    expect((await agent.say({ index: 1, text: 'a' })).error).toBe(
      `the agent at ${url} did not answer as the protocol says: HTTP 500: KeyError: session`,
    );
    expect((await agent.say({ index: 2, text: 'b' })).error).toMatch(
      /did not answer as the protocol says: text: required/,
    );
    expect((await agent.say({ index: 3, text: 'c' })).error).toBe(
      `the agent at ${url} answered with a body over 1048576 bytes`,
    );
  });

  it('gives a per-turn error, not a hang, when the agent does not answer in time', async () => {
    const url = await serve(() => undefined);
    const reply = await agentAt(url, 300).say({ index: 1, text: 'hi' });
    expect(reply).toEqual({
      text: null,
      error: `the agent at ${url} did not answer within 300 ms`,
    });
  });

  it('masks a password in the url it names', async () => {
    const url = await serve((_body, _request, response) => response.writeHead(503).end());
    const reply = await agentAt(url.replace('//', '//ada:hunter2@')).say({ index: 1, text: 'hi' });
    expect(reply.error).toMatch(/HTTP 503/);
    expect(reply.error).not.toContain('hunter2');
  });
});
