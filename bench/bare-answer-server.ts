/**
 * The floor of the replay rows, in its own process as a replaying proxy is: an HTTP server that
 * answers each `sdk-traffic` call from memory, with nothing looked up, recorded or logged.
 * Every answer is built once, at start. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callNumber, streamedAnswer, wholeAnswer } from './sdk-traffic.js';

const calls = Number(process.env['BENCH_CALLS'] ?? 1000);
const whole = Array.from({ length: calls }, (_, i) => Buffer.from(wholeAnswer(i)));
const streamed = Array.from({ length: calls }, (_, i) =>
  streamedAnswer(i).map((event) => Buffer.from(event)),
);

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const body = Buffer.concat(parts).toString();
    const i = callNumber(body);
    if (i < 0 || i >= calls) {
      response.writeHead(404).end();
      return;
    }
    if (body.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of streamed[i] ?? []) response.write(event);
      response.end();
    } else
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(whole[i] ?? Buffer.alloc(0));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`),
);
