import { once } from 'node:events';
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy } from '../support/test-proxy.js';

let upstream: ScriptedUpstream;
let proxy: Awaited<ReturnType<typeof startTestProxy>>;

beforeEach(async () => {
  upstream = await startScriptedUpstream();
  proxy = await startTestProxy(upstream.url);
});

afterEach(async () => {
  await proxy.close();
  await upstream.close();
});

/** Opens a streaming chat request and returns the raw response (not yet read). */
async function openStream(): Promise<import('node:http').IncomingMessage> {
  const outgoing = request(`${proxy.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  outgoing.end(JSON.stringify({ model: 'm', stream: true, messages: [] }));
  const [response] = (await once(outgoing, 'response')) as [import('node:http').IncomingMessage];
  return response;
}

describe('the streaming byte path', () => {
  it('delivers each upstream event to the agent before the upstream sends the next', async () => {
    const received: string[] = [];
    let deliver: (() => void) | undefined;
    upstream.setScript([
      {
        kind: 'custom',
        async handle(response) {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          for (let n = 0; n < 5; n++) {
            const arrived = new Promise<void>((resolve) => (deliver = resolve));
            response.write(`data: {"n":${n}}\n\n`);
            // The next event is only written once the agent has this one: a buffering proxy deadlocks here.
            await arrived;
          }
          response.end('data: [DONE]\n\n');
        },
      },
    ]);
    const response = await openStream();
    response.setEncoding('utf8');
    for await (const text of response) {
      received.push(text as string);
      if ((text as string).includes('"n"')) deliver?.();
    }
    expect(received.join('')).toBe(
      [0, 1, 2, 3, 4].map((n) => `data: {"n":${n}}\n\n`).join('') + 'data: [DONE]\n\n',
    );
  });

  it('applies backpressure: a stalled agent stalls the upstream instead of filling the proxy', async () => {
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let finished = false;
    upstream.setScript([
      {
        kind: 'custom',
        async handle(response) {
          response.writeHead(200, { 'content-type': 'application/octet-stream' });
          while (written < total && !response.destroyed) {
            written += piece.length;
            if (!response.write(piece)) await once(response, 'drain');
          }
          response.end();
          finished = true;
        },
      },
    ]);
    const response = await openStream();
    response.pause();
    // Give an unbounded forwarder ample time to read everything the upstream can write.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writtenWhileStalled = written;
    expect(finished).toBe(false);
    expect(writtenWhileStalled).toBeLessThan(total / 2);
    let read = 0;
    response.on('data', (chunk: Buffer) => (read += chunk.length));
    response.resume();
    await once(response, 'end');
    expect(read).toBe(total);
  });
});
