import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Feed } from './feed.js';
import type { FeedEvent } from './feed-events.js';
import { matchesFilter, feedFilterOf } from './feed-events.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function feedServer(): Promise<{ feed: Feed; url: string; dropped: () => number }> {
  let dropped = 0;
  const feed = new Feed(
    () => undefined,
    () => dropped++,
  );
  const server = createServer();
  server.on('upgrade', (request, socket, head) => feed.accept(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    feed.close();
    server.close();
  });
  return {
    feed,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/calltape/feed`,
    dropped: () => dropped,
  };
}

const scored = (
  sessionId: string,
  tool: string,
  verdict: 'pass' | 'fail',
  padding = '',
): FeedEvent => ({
  type: 'call.scored',
  at: 0,
  interactionId: 'i',
  sessionId,
  wire: 'openai-chat',
  model: 'm',
  tool,
  callIndex: 0,
  arguments: padding,
  mocked: false,
  verdict,
  score: verdict === 'pass' ? 1 : 0,
  evaluated: ['p'],
  failures: [],
});

describe('Feed', () => {
  it('drops a client that stops reading, and keeps serving the others', async () => {
    const { feed, url, dropped } = await feedServer();
    const slow = new WebSocket(url);
    const fast = new WebSocket(url);
    await Promise.all(
      [slow, fast].map((client) => new Promise((resolve) => client.once('message', resolve))),
    );
    (slow as unknown as { _socket: Socket })._socket.pause();
    let received = 0;
    fast.on('message', () => received++);
    const big = 'x'.repeat(64 * 1024);
    for (let index = 0; index < 400 && dropped() === 0; index++) {
      feed.publish(scored('s', 't', 'pass', big));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(dropped()).toBe(1);
    expect(feed.size).toBe(1);
    feed.publish(scored('s', 't', 'pass'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toBeGreaterThan(0);
    slow.terminate();
    fast.close();
  });

  it('sends each client only the events its filter passes', () => {
    const filter = feedFilterOf(new URLSearchParams('tool=transfer&verdict=fail'));
    expect(matchesFilter(scored('s', 'transfer', 'fail'), filter)).toBe(true);
    expect(matchesFilter(scored('s', 'transfer', 'pass'), filter)).toBe(false);
    expect(matchesFilter(scored('s', 'balance', 'fail'), filter)).toBe(false);
    const bySession = feedFilterOf(new URLSearchParams('session=a&type=call.scored'));
    expect(matchesFilter(scored('a', 't', 'pass'), bySession)).toBe(true);
    expect(matchesFilter(scored('b', 't', 'pass'), bySession)).toBe(false);
    expect(
      matchesFilter({ type: 'policies.reloaded', at: 0, ok: true, message: '' }, bySession),
    ).toBe(false);
    expect(
      matchesFilter(
        { type: 'policies.reloaded', at: 0, ok: true, message: '' },
        feedFilterOf(new URLSearchParams('')),
      ),
    ).toBe(true);
  });
});
