import { describe, expect, it } from 'vitest';
import { OrderedEventStore } from './ordered-event-store.js';

describe('OrderedEventStore (mcp-http resume flake: an answer stored in the priming event’s millisecond was skipped)', () => {
  it('replays every later event of the stream, in the order stored, however fast they came', async () => {
    const store = new OrderedEventStore();
    const priming = await store.storeEvent('post-1', { jsonrpc: '2.0', method: 'ping', id: 0 });
    await store.storeEvent('get', { jsonrpc: '2.0', method: 'notifications/other' });
    for (let id = 1; id <= 50; id += 1)
      await store.storeEvent('post-1', { jsonrpc: '2.0', id, result: {} });
    const replayed: unknown[] = [];
    const stream = await store.replayEventsAfter(priming, {
      send: (_eventId, message) => Promise.resolve(void replayed.push(message)),
    });
    expect(stream).toBe('post-1');
    expect(await store.getStreamIdForEventId(priming)).toBe('post-1');
    expect(replayed.map((message) => (message as { id: number }).id)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
    expect(await store.replayEventsAfter('unknown', { send: () => Promise.resolve() })).toBe('');
  });
});
