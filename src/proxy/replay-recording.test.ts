import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Recording } from '../cassette/sqlite/cassette-reader.js';
import { replayRecording, timingFactor } from './replay-recording.js';

describe('timingFactor', () => {
  it('reads none, exact and scaled:F', () => {
    expect([
      timingFactor('none'),
      timingFactor('exact'),
      timingFactor('scaled:0.25'),
      timingFactor('scaled:3'),
    ]).toEqual([0, 1, 0.25, 3]);
  });
});

describe('replayRecording', () => {
  // Issue 37: flushing a replayed stream's headers on their own cost every streamed call a socket
  // write of its own; unpaced, the headers and every piece leave in one write, as from a server.
  it('sends an unpaced stream in one write to the socket, headers included', async () => {
    const body = Buffer.from('data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n');
    const recording: Recording = {
      seq: 1,
      id: 'rec-1',
      status: 'complete',
      httpStatus: 200,
      error: null,
      ending: 'finished',
      headers: { 'content-type': 'text/event-stream' },
      body,
      chunks: [
        [14, 1],
        [28, 2],
        [body.length, 3],
      ],
      startedAt: 0,
    };
    let writes = 0;
    const server = createServer((_request, response) => {
      const socket = response.socket as Socket & {
        _write: (...args: unknown[]) => void;
        _writev: (...args: unknown[]) => void;
      };
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args: unknown[]) => {
          writes++;
          original(...args);
        };
      }
      replayRecording(recording, response, 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe(body.toString());
    expect(answer.headers.get('x-calltape-replay')).toBe('rec-1');
    await new Promise((resolve) => server.close(resolve));
    expect(writes).toBe(1);
  });
});
