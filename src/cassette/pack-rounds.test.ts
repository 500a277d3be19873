import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { CapturedRound } from './captured-round.js';
import { packRounds } from './pack-rounds.js';
import { roundBytes } from './round-size.js';

const bytes = fc.uint8Array({ maxLength: 64 }).map((array) => Buffer.from(array));

const round: fc.Arbitrary<Parts> = fc.record({
  body: bytes,
  chunks: fc.option(fc.array(bytes, { maxLength: 6 }), { nil: undefined }),
  agentRequest: fc.option(bytes, { nil: undefined }),
  agentResponse: fc.option(bytes, { nil: undefined }),
});

interface Parts {
  readonly body: Buffer;
  readonly chunks: Buffer[] | undefined;
  readonly agentRequest: Buffer | undefined;
  readonly agentResponse: Buffer | undefined;
}

function capturedRound(parts: Parts, index: number): CapturedRound {
  const agentView = {
    ...(parts.agentRequest ? { request: parts.agentRequest } : {}),
    ...(parts.agentResponse ? { response: parts.agentResponse } : {}),
  };
  return {
    adapterId: 'openai-chat',
    request: {
      id: `r${index}`,
      sessionId: `r${index}`,
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: parts.body,
      startedAt: index,
    },
    upstream: parts.chunks && {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: parts.chunks,
      chunkTimes: parts.chunks.map((_, at) => at),
      firstByteMs: 0,
      totalMs: 1,
      ending: 'finished',
      errorMessage: undefined,
    },
    match: undefined,
    proxyError: undefined,
    ...(Object.keys(agentView).length > 0 ? { agentView } : {}),
  };
}

/** A round with every byte field as a plain array, to compare packed and unpacked alike. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

describe('packRounds', () => {
  it('keeps every byte and every chunk boundary, all in one buffer of exactly their size', () => {
    fc.assert(
      fc.property(fc.array(round, { maxLength: 8 }), (parts) => {
        const rounds = parts.map((part, index) => ({
          cassette: 'c',
          round: capturedRound(part, index),
        }));
        const before = rounds.map((routed) => plain(routed.round));
        const packed = packRounds(
          rounds,
          (routed) => routed.round,
          (routed, packedRound) => ({ ...routed, round: packedRound }),
        );
        expect(packed.items.map((routed) => plain(routed.round))).toEqual(before);
        expect(packed.buffer.byteLength).toBe(
          rounds.reduce((sum, routed) => sum + roundBytes(routed.round), 0),
        );
        for (const routed of packed.items) {
          expect(routed.round.request.body.buffer).toBe(packed.buffer);
          for (const chunk of routed.round.upstream?.chunks ?? [])
            expect(chunk.buffer).toBe(packed.buffer);
        }
        // The rounds handed in still hold their own bytes.
        expect(rounds.map((routed) => plain(routed.round))).toEqual(before);
      }),
    );
  });

  it('posts items that hold no round as they are, in their place between the packed ones', () => {
    fc.assert(
      fc.property(fc.array(fc.option(round, { nil: undefined }), { maxLength: 8 }), (parts) => {
        const items = parts.map((part, index) =>
          part ? { round: capturedRound(part, index) } : { note: index },
        );
        const packed = packRounds(
          items,
          (item) => ('round' in item ? item.round : undefined),
          (_, packedRound) => ({ round: packedRound }),
        );
        expect(packed.items.map(plain)).toEqual(items.map(plain));
        packed.items.forEach((item, index) => {
          if (!('round' in item)) expect(item).toBe(items[index]);
        });
      }),
    );
  });

  it('crosses a MessageChannel with its buffer transferred, bytes intact', async () => {
    const rounds = [0, 1].map((index) => ({
      cassette: 'c',
      round: capturedRound(
        {
          body: Buffer.from(`{"n":${index}}`),
          chunks: [Buffer.from('data: a\n\n'), Buffer.from('data: b\n\n')],
          agentRequest: undefined,
          agentResponse: undefined,
        },
        index,
      ),
    }));
    const packed = packRounds(
      rounds,
      (routed) => routed.round,
      (routed, packedRound) => ({ ...routed, round: packedRound }),
    );
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<typeof packed.items>((resolve) => {
      port2.once('message', (data: typeof packed.items) => resolve(data));
    });
    port1.postMessage(packed.items, [packed.buffer]);
    const items = await received;
    port1.close();
    port2.close();
    // Transferred, not copied: the sender's buffer is detached.
    expect(packed.buffer.byteLength).toBe(0);
    expect(items.map((routed) => plain(routed.round))).toEqual(
      rounds.map((routed) => plain(routed.round)),
    );
  });
});
