/**
 * The floor: the thinnest correct Node pass-through (node:http piping to the upstream through a
 * keep-alive agent; no parsing, no store). Run as its own process; prints its port.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.env['BENCH_UPSTREAM'] ?? 'http://127.0.0.1:1');
const agent = new Agent({ keepAlive: true, maxSockets: 1024 });

const server = createServer((incoming, outgoing) => {
  const headers = { ...incoming.headers, host: upstream.host };
  delete headers.connection;
  const forward = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers,
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forward.on('error', () => outgoing.destroy());
  outgoing.on('close', () => forward.destroy());
  incoming.pipe(forward);
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`),
);
