import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Trajectory, TrajectoryCall, Turn } from '../trace/trajectory.js';
import { withUnaskedCalls, type RelayedMcpCall } from './relayed-mcp-calls.js';

const turnAt = (index: number): Turn =>
  ({ index, interactionId: `i${index}`, startedAt: 100 * index }) as unknown as Turn;
const modelCall = (turn: number, index: number, step: number): TrajectoryCall => ({
  id: `call_${step}`,
  name: 'lookup',
  argumentsRaw: '{}',
  arguments: { ok: true, value: {} },
  complete: true,
  turn,
  index,
  step,
  result: undefined,
  mocked: false,
});
const unasked = (id: string, startedAt: number): RelayedMcpCall => ({
  id,
  sessionId: 's',
  sessionGiven: true,
  startedAt,
  server: 'notes',
  subject: 'add',
  params: { name: 'add', arguments: { a: 1 } },
  result: { content: [{ type: 'text', text: '2' }], isError: true },
  error: undefined,
});

/** A trajectory of `perTurn[t]` model calls in turn t, turn t starting at 100·t. */
function trajectoryOf(perTurn: readonly number[]): Trajectory {
  const calls: TrajectoryCall[] = [];
  perTurn.forEach((count, turn) => {
    for (let index = 0; index < count; index++) calls.push(modelCall(turn, index, calls.length));
  });
  return {
    sessionId: 's',
    turns: perTurn.map((_, index) => turnAt(index)),
    calls,
    finalText: '',
    counts: { turns: perTurn.length, calls: calls.length, byTool: { lookup: calls.length } },
  };
}

describe('withUnaskedCalls', () => {
  it('puts each call after the model calls of the turn it followed, in the order they ran, with the server’s verdict', () => {
    const result = withUnaskedCalls(trajectoryOf([1, 2]), [
      unasked('late', 150),
      unasked('early', 50),
    ]);
    expect(
      result.calls.map((call) => [call.id ?? 'mcp', call.turn, call.index, call.step]),
    ).toEqual([
      ['call_0', 0, 0, 0],
      ['mcp', 0, 1, 1],
      ['call_1', 1, 0, 2],
      ['call_2', 1, 1, 3],
      ['mcp', 1, 2, 4],
    ]);
    expect(result.calls[1]).toMatchObject({
      name: 'add',
      argumentsRaw: '{"a":1}',
      result: { text: '2', isError: true },
    });
    expect(result.counts).toEqual({ turns: 2, calls: 5, byTool: { lookup: 3, add: 2 } });
  });

  it('keeps every model call in order and numbers the steps of the whole run (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat({ max: 600 }), { maxLength: 6 }),
        (perTurn, times) => {
          const before = trajectoryOf(perTurn);
          const after = withUnaskedCalls(
            before,
            times.map((time, n) => unasked(`m${n}`, time)),
          );
          expect(after.calls.map((call) => call.step)).toEqual(after.calls.map((_, step) => step));
          expect(
            after.calls.filter((call) => call.id !== undefined).map((call) => call.id),
          ).toEqual(before.calls.map((call) => call.id));
          expect(after.counts.calls).toBe(before.calls.length + times.length);
          expect(after.calls.map((call) => call.turn)).toEqual(
            [...after.calls.map((call) => call.turn)].sort((a, b) => a - b),
          );
        },
      ),
    );
  });
});
