import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallVerdict } from './verdict-types.js';
import { VerdictWriter } from './verdict-writer.js';

const call = (index: number): CallVerdict => ({
  at: index,
  interactionId: `i-${index}`,
  sessionId: 's',
  wire: 'openai-chat',
  model: 'm',
  tool: 't',
  callIndex: 0,
  arguments: '{}',
  mocked: false,
  verdict: 'pass',
  score: 1,
  evaluated: [],
  failures: [],
});

describe('VerdictWriter', () => {
  it('keeps the verdicts of a failed write and writes them, in order, once the store is back', () => {
    const written: number[] = [];
    const messages: string[] = [];
    let down = true;
    const writer = new VerdictWriter(
      (calls) => {
        if (down) throw new Error('connection refused');
        written.push(...calls.map((verdict) => verdict.at));
      },
      (message) => messages.push(message),
      { batchCalls: 1_000 },
    );
    writer.add([call(1), call(2)], []);
    expect(writer.flush()).toBe(false);
    writer.add([call(3)], []);
    expect(writer.flush()).toBe(false);
    expect(writer.pending).toBe(3);
    down = false;
    expect(writer.flush()).toBe(true);
    writer.stop();
    expect(written).toEqual([1, 2, 3]);
    expect(writer.dropped).toBe(0);
    // One message when the outage starts, one when it ends: not one per try.
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/could not store 2 call.*connection refused/);
  });

  it('never keeps more than its bound: every verdict is written, pending or dropped, oldest dropped first (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.boolean()), { maxLength: 30 }),
        (maxPending, steps) => {
          const written: number[] = [];
          let up = false;
          const writer = new VerdictWriter(
            (calls) => {
              if (!up) throw new Error('down');
              written.push(...calls.map((verdict) => verdict.at));
            },
            () => undefined,
            { batchCalls: 1_000, maxPending },
          );
          let added = 0;
          for (const [count, storeUp] of steps) {
            writer.add(
              Array.from({ length: count }, () => call(added++)),
              [],
            );
            up = storeUp;
            writer.flush();
            expect(writer.pending).toBeLessThanOrEqual(maxPending);
          }
          writer.stop();
          expect(written.length + writer.pending + writer.dropped).toBe(added);
          expect(written).toEqual([...written].sort((a, b) => a - b));
        },
      ),
    );
  });
});
