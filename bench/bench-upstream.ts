/**
 * Benchmark upstream (run as its own process): an OpenAI-compatible server whose streamed
 * events carry the wall-clock time they were written, so the client can measure per-event
 * latency through each path. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatStreamEvent, completionFor } from './chat-traffic.js';

const events = Number(process.env['BENCH_EVENTS'] ?? 20);
const gapMs = Number(process.env['BENCH_GAP_MS'] ?? 5);
const now = (): number => performance.timeOrigin + performance.now();
const completion = completionFor('chatcmpl-bench', ['Paris']);
/** The answer to a request that allows parallel tool calls: three calls in one turn. */
const parallelCompletion = completionFor('chatcmpl-bench-parallel', ['Paris', 'Oslo', 'Lima']);

/** An Anthropic Messages event: a tool_use block opened, input_json_delta pieces, then the turn's end. */
function anthropicEvent(n: number, last: boolean): string {
  const event = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, t: now(), ...data })}\n\n`;
  if (n === 0)
    return (
      event('message_start', {
        message: {
          id: 'msg_bench',
          type: 'message',
          role: 'assistant',
          model: 'claude',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 120, output_tokens: 1 },
        },
      }) +
      event('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
      })
    );
  if (last)
    return (
      event('content_block_stop', { index: 0 }) +
      event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } }) +
      event('message_stop', {})
    );
  return event('content_block_delta', {
    index: 0,
    delta: {
      type: 'input_json_delta',
      partial_json: n === 1 ? '{"c":"' : n === events - 1 ? '"}' : 'ab',
    },
  });
}

/** A Responses event: a function_call item added, argument deltas, then response.completed. */
function responsesEvent(n: number, last: boolean): string {
  const event = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, t: now(), sequence_number: n, ...data })}\n\n`;
  const item = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '',
  };
  if (n === 0) return event('response.output_item.added', { output_index: 0, item });
  if (last)
    return event('response.completed', {
      response: {
        id: 'resp_bench',
        object: 'response',
        status: 'completed',
        model: 'gpt-4.1-mini',
        output: [{ ...item, arguments: '{"c":"ab"}', status: 'completed' }],
        usage: { input_tokens: 120, output_tokens: 20, total_tokens: 140 },
      },
    });
  return event('response.function_call_arguments.delta', {
    item_id: 'fc_1',
    output_index: 0,
    delta: n === 1 ? '{"c":"' : n === events - 1 ? '"}' : 'ab',
  });
}

/** An Ollama `/api/chat` stream line: text pieces, the call whole in one line, then the `done` object. */
function ollamaLine(n: number, last: boolean): string {
  const head = { model: 'llama3.2', created_at: '2026-12-03T15:00:00Z', t: now() };
  if (last)
    return `${JSON.stringify({
      ...head,
      message: { role: 'assistant', content: '' },
      done_reason: 'stop',
      done: true,
      prompt_eval_count: 120,
      eval_count: 20,
    })}\n`;
  const message =
    n === events - 1
      ? {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'call_bench1',
              function: { index: 0, name: 'get_weather', arguments: { c: 'ab' } },
            },
          ],
        }
      : { role: 'assistant', content: 'ab' };
  return `${JSON.stringify({ ...head, message, done: false })}\n`;
}

/** A Gemini `:streamGenerateContent?alt=sse` event: text pieces, the call whole in one event, then the finish with usage. */
function geminiEvent(n: number, last: boolean): string {
  const part =
    n === events - 1
      ? { functionCall: { name: 'get_weather', args: { c: 'ab' } } }
      : { text: 'ab' };
  const candidate = last
    ? { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }
    : { content: { role: 'model', parts: [part] }, index: 0 };
  return `data: ${JSON.stringify({
    candidates: [candidate],
    ...(last
      ? { usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 20, totalTokenCount: 140 } }
      : {}),
    modelVersion: 'gemini-2.5-flash',
    t: now(),
  })}\r\n\r\n`;
}

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const body = Buffer.concat(parts);
    const stream = body.includes('"stream":true');
    if (request.url?.includes(':streamGenerateContent')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const sendEvent = (): void => {
        if (response.destroyed) return;
        const last = n === events;
        response.write(geminiEvent(n++, last));
        if (last) response.end();
        else setTimeout(sendEvent, gapMs);
      };
      sendEvent();
      return;
    }
    if (stream && request.url?.endsWith('/api/chat')) {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let n = 0;
      const sendLine = (): void => {
        if (response.destroyed) return;
        const last = n === events;
        response.write(ollamaLine(n++, last));
        if (last) response.end();
        else setTimeout(sendLine, gapMs);
      };
      sendLine();
      return;
    }
    if (!stream) {
      const answer = body.includes('"parallel_tool_calls":true') ? parallelCompletion : completion;
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
      });
      response.end(answer);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const wire = request.url?.endsWith('/messages')
      ? anthropicEvent
      : request.url?.endsWith('/responses')
        ? responsesEvent
        : undefined;
    let n = 0;
    const send = (): void => {
      if (response.destroyed) return;
      if (wire) {
        // Every event carries its write time in "t"; the last one ends the turn in the wire's own way.
        const last = n === events;
        response.write(wire(n, last));
        if (last) response.end();
        n++;
        if (!last) setTimeout(send, gapMs);
        return;
      }
      const event = chatStreamEvent(n, events, now());
      if (n === events) {
        response.end(event);
        return;
      }
      response.write(event);
      n++;
      setTimeout(send, gapMs);
    };
    send();
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`),
);
