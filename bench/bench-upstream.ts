/**
 * Benchmark upstream (run as its own process): an OpenAI-compatible server whose streamed
 * events carry the wall-clock time they were written, so the client can measure per-event
 * latency through each path. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const events = Number(process.env['BENCH_EVENTS'] ?? 20);
const gapMs = Number(process.env['BENCH_GAP_MS'] ?? 5);
const now = (): number => performance.timeOrigin + performance.now();
const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } }] }, finish_reason: 'tool_calls' }],
  usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
});

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const stream = Buffer.concat(parts).includes('"stream":true');
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
      response.end(completion);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    let n = 0;
    const send = (): void => {
      if (response.destroyed) return;
      if (n === events) {
        response.end(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`);
        return;
      }
      const fragment = n === 0 ? { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } } : { index: 0, function: { arguments: '{"c' } };
      response.write(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', t: now(), choices: [{ index: 0, delta: { tool_calls: [fragment] }, finish_reason: null }] })}\n\n`);
      n++;
      setTimeout(send, gapMs);
    };
    send();
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
