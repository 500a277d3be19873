import { describe, expect, it } from 'vitest';
import type { PendingMcpRequest } from './mcp-responder.js';
import { noteInterim } from './note-interim.js';

const pending = (progressToken?: number): PendingMcpRequest => ({
  method: 'tools/call',
  params: undefined,
  key: 'k',
  canonical: 'c',
  ordinal: 0,
  startedAt: 0,
  started: 0,
  progressToken,
  during: [],
});
const log = {
  kind: 'notification',
  method: 'notifications/message',
  params: { data: 'hi' },
} as const;
const roots = { kind: 'request', id: 9, method: 'roots/list', params: undefined } as const;

describe('noteInterim', () => {
  it('keeps progress with its token’s request and a request to the client with the latest in flight; a log line on stdio (naming no request) is not kept', () => {
    const first = pending(1);
    const latest = pending(2);
    noteInterim([first, latest], {
      kind: 'notification',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    noteInterim([first, latest], roots);
    noteInterim([first, latest], log);
    expect(first.during).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      },
    ]);
    expect(latest.during).toEqual([{ jsonrpc: '2.0', id: 9, method: 'roots/list' }]);
  });

  it('keeps what came on the server’s own stream with the latest request in flight, marked standalone', () => {
    const latest = pending();
    noteInterim([pending(), latest], log, 'standalone');
    noteInterim([pending(), latest], roots, 'standalone');
    expect(latest.during).toEqual([
      {
        stream: 'standalone',
        message: { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'hi' } },
      },
      { stream: 'standalone', message: { jsonrpc: '2.0', id: 9, method: 'roots/list' } },
    ]);
  });

  it('keeps a log line that came on a request’s own stream (an HTTP POST’s SSE answer) with that request', () => {
    const latest = pending();
    noteInterim([latest], log, 'request');
    expect(latest.during).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'hi' } },
    ]);
  });
});
