import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedChatRound } from '../../test/support/captured-round.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../test/support/otlp-receiver.js';
import { chatCompletion } from '../../test/support/openai-chat-chunks.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { roundBytes } from '../cassette/round-size.js';
import { createLogger } from '../logger.js';
import { startProxySpans, type ProxySpanOptions } from './proxy-spans.js';

const apiKey = 'sk-proxy-spans-secret-0123456789';

/** A finished non-streamed Chat Completions round carrying the agent's key in its header and body. */
function round(index: number): CapturedRound {
  return capturedChatRound({
    id: `round-${index}`,
    sessionId: `session-${index}`,
    requestHeaders: { authorization: `Bearer ${apiKey}` },
    requestBody: JSON.stringify({
      model: 'gpt-test',
      messages: [{ role: 'user', content: apiKey }],
    }),
    responseBody: JSON.stringify(chatCompletion({ text: `answer ${index}` })),
    startedAt: Date.now(),
  });
}

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

/** Starts the sink against the receiver, counting what it reports as /metrics would. */
function sink(more: Partial<ProxySpanOptions> = {}) {
  const counted = { round: 0, span: 0, exported: 0 };
  const spans = startProxySpans(
    { url: `${receiver.url}/v1/traces`, protocol: 'http/protobuf', captureContent: true },
    {
      redact: { headers: [], bodyPatterns: [], builtinPatterns: true },
      logger: createLogger('silent'),
      maxDecodedBytes: 1 << 20,
      sessionIdleMs: 60_000,
      dropped: (what, count) => (counted[what] += count),
      exported: (count) => (counted.exported += count),
      ...more,
    },
  );
  return { spans, counted };
}

const chatSpansOf = (ids: readonly string[]) =>
  receiver
    .spans()
    .filter(
      (span) =>
        span.name === 'chat gpt-test' &&
        ids.includes(String(span.attributes['calltape.interaction.id'])),
    );

/** The interaction ids of those rounds that reached the collector as chat spans. */
const tracedIds = (rounds: readonly CapturedRound[]) =>
  chatSpansOf(rounds.map((captured) => captured.request.id)).map(
    (span) => span.attributes['calltape.interaction.id'],
  );

describe('startProxySpans (export on a worker thread)', () => {
  it('flushes on close: rounds handed over just before it reach the collector, redacted, and their spans are counted', async () => {
    const { spans, counted } = sink();
    const rounds = [round(100), round(101)];
    for (const captured of rounds) spans.round(captured);
    await spans.close(5_000);
    const chats = chatSpansOf(rounds.map((captured) => captured.request.id));
    expect(chats).toHaveLength(2);
    // Each round its own session: a chat span and an invoke_agent span each, all accepted.
    expect(counted).toEqual({ round: 0, span: 0, exported: 4 });
    expect(JSON.stringify(chats.map((chat) => chat.attributes))).not.toContain(apiKey);
  });

  it("counts the rounds past the worker's queue bound as dropped rounds and traces the others", async () => {
    const { spans, counted } = sink({ maxQueuedRounds: 2 });
    const rounds = [200, 201, 202, 203, 204].map(round);
    // In one tick: the worker cannot have traced any yet, so the bound is reached at the third.
    for (const captured of rounds) spans.round(captured);
    expect(counted.round).toBe(3);
    await spans.close(5_000);
    expect(tracedIds(rounds)).toEqual(['round-200', 'round-201']);
    expect(counted).toEqual({ round: 3, span: 0, exported: 4 });
  });

  it("counts the rounds past the worker's byte bound as dropped rounds: the bound is on raw bytes, not only rounds", async () => {
    const size = roundBytes(round(300));
    const { spans, counted } = sink({ maxQueuedBytes: size * 2 + size / 2 });
    const rounds = [300, 301, 302, 303].map(round);
    for (const captured of rounds) spans.round(captured);
    expect(counted.round).toBe(2);
    await spans.close(5_000);
    expect(tracedIds(rounds)).toEqual(['round-300', 'round-301']);
  });
});
