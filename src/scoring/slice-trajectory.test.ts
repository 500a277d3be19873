import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trajectory, type CallSpec } from '../../test/support/trajectory.js';
import { roundsOfTurns } from './conversation-run.js';
import { sliceTrajectory } from './slice-trajectory.js';
import { scoreTrajectory } from './trajectory/score-trajectory.js';
import type { Expectations } from './trajectory/types.js';

const tools = ['lookup', 'refund', 'notify'] as const;
const callSpec: fc.Arbitrary<CallSpec> = fc.tuple(
  fc.constantFrom(...tools),
  fc.record({ id: fc.constantFrom('A', 'B') }),
);
const rounds = fc.array(fc.array(callSpec, { maxLength: 2 }), { minLength: 1, maxLength: 6 });
const expectations: fc.Arbitrary<Expectations> = fc.record(
  {
    calls: fc.array(fc.constantFrom(...tools), { maxLength: 3 }),
    mode: fc.constantFrom('all', 'ordered', 'exact', 'any', 'unordered', 'subset'),
    max_steps: fc.nat(4),
    max_rounds: fc.nat(4),
    before: fc.constant([['lookup', 'refund']]),
  },
  { requiredKeys: ['calls'] },
);

describe('sliceTrajectory', () => {
  it('a turn made of some rounds is the trajectory those rounds make alone', () => {
    const whole = trajectory(
      [[['lookup', { id: 'A' }]], [], [['refund', { id: 'A' }], ['notify']]],
      'done',
    );
    const part = sliceTrajectory(whole, [1, 2]);
    expect(part.calls.map((call) => [call.name, call.turn, call.step, call.id])).toEqual([
      ['refund', 1, 0, 'call_1'],
      ['notify', 1, 1, 'call_2'],
    ]);
    expect(part.turns.map((turn) => [turn.index, turn.interactionId])).toEqual([
      [0, 'i1'],
      [1, 'i2'],
    ]);
    expect(part.counts).toEqual({ rounds: 2, calls: 2, byTool: { refund: 1, notify: 1 } });
    expect(part.finalText).toBe('done');
  });

  it('a conversation split into turns scores each turn as the same calls scored whole, where the expectations coincide (property)', async () => {
    await fc.assert(
      fc.asyncProperty(rounds, fc.array(fc.nat(5)), expectations, async (specs, cuts, expect_) => {
        const whole = trajectory(specs);
        // Turns said at arbitrary points: each round goes to the last turn said before it started.
        const starts = [0, ...[...new Set(cuts)].sort((a, b) => a - b).map((cut) => cut + 0.5)];
        const owner = roundsOfTurns(
          starts,
          whole.turns.map((round) => round.startedAt),
        );
        const parts = starts.map((_, turn) =>
          owner.flatMap((mine, round) => (mine === turn ? [round] : [])),
        );
        // Every call lands in exactly one turn, in order.
        expect(parts.flat()).toEqual(whole.turns.map((_, index) => index));
        for (const part of parts) {
          const sliced = sliceTrajectory(whole, part);
          const alone = trajectory(part.map((round) => specs[round] ?? []));
          const [left, right] = await Promise.all([
            scoreTrajectory({ expect: expect_ }, sliced),
            scoreTrajectory({ expect: expect_ }, alone),
          ]);
          expect(left.score).toBe(right.score);
          expect(left.status).toBe(right.status);
          expect(left.reasons).toEqual(right.reasons);
        }
        // One turn holding every round scores exactly as the whole run.
        const [one, all] = await Promise.all([
          scoreTrajectory(
            { expect: expect_ },
            sliceTrajectory(
              whole,
              whole.turns.map((_, index) => index),
            ),
          ),
          scoreTrajectory({ expect: expect_ }, whole),
        ]);
        expect(one).toEqual(all);
      }),
      { numRuns: 150 },
    );
  });
});
