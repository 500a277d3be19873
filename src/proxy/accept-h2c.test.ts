import {
  createServer,
  request as httpRequest,
  Agent,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptH2c } from './accept-h2c.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An HTTP/1.1 server that also takes h2c, answering every request with what it saw. */
async function start(): Promise<number> {
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(
        `${request.httpVersion} ${request.method} ${request.url} ${Buffer.concat(parts).toString()}`,
      );
    });
  };
  const server = createServer(listener);
  const h2c = acceptH2c(server, listener, 500);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        h2c.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

function http1(port: number, agent: Agent, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { port, host: '127.0.0.1', method: 'POST', path: '/one', agent },
      (response) => {
        let text = '';
        response.on('data', (part: Buffer) => (text += part.toString()));
        response.on('end', () => resolve(text));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('acceptH2c', () => {
  it('serves HTTP/1.1 (kept alive) and HTTP/2 with prior knowledge on the same port, through the same listener', async () => {
    const port = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closers.push(async () => agent.destroy());
    expect(await http1(port, agent, 'a')).toBe('1.1 POST /one a');
    expect(await http1(port, agent, 'b')).toBe('1.1 POST /one b');
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    closers.push(() => new Promise<void>((resolve) => session.close(() => resolve())));
    const answers = await Promise.all(
      ['x', 'y'].map(
        (body) =>
          new Promise<string>((resolve, reject) => {
            const stream = session.request({ ':method': 'POST', ':path': `/two/${body}` });
            let text = '';
            stream.on('data', (part: Buffer) => (text += part.toString()));
            stream.on('end', () => resolve(text));
            stream.on('error', reject);
            stream.end(body);
          }),
      ),
    );
    expect(answers).toEqual(['2.0 POST /two/x x', '2.0 POST /two/y y']);
  });

  it('cuts a connection that sends nothing, as no server has taken it yet to time it out', async () => {
    const port = await start();
    const socket = connectTcp(port, '127.0.0.1');
    closers.push(async () => void socket.destroy());
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(socket.destroyed).toBe(true);
  });

  it('waits for more bytes when the first read only starts like the preface (an HTTP/1.1 request sent a byte at a time)', async () => {
    const port = await start();
    const socket = connectTcp(port, '127.0.0.1');
    closers.push(async () => void socket.destroy());
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let text = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (part: Buffer) => {
        text += part.toString();
        if (text.includes('/slow ')) resolve();
      }),
    );
    socket.write('P');
    // The next write waits for the first to leave, so the server reads them apart.
    await new Promise<void>((resolve) => setImmediate(resolve));
    socket.write('UT /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await answered;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text).toContain('1.1 PUT /slow ');
  });
});
