import { describe, expect, it } from 'vitest';
import { roundTrip, user } from '../../../test/support/agent-round-trip.js';
import { buildTrajectories } from '../../trace/build-trajectories.js';
import type { Trajectory } from '../../trace/trajectory.js';
import { scoreTrajectory } from './score-trajectory.js';
import type { TrajectoryCase } from './types.js';

/** One turn calling each of `names`, built as `calltape test` builds a run. */
function run(names: readonly string[]): Trajectory {
  const base = roundTrip('s', 0, [user('go')]);
  const output = base.response?.output;
  if (!base.response || !output) throw new Error('the round trip has an answer');
  const toolCalls = names.map((name, index) => ({
    id: `c${index}`,
    index,
    name,
    argumentsRaw: '{}',
    arguments: { ok: true as const, value: {} },
    complete: true,
  }));
  const [trajectory] = buildTrajectories([
    { ...base, response: { ...base.response, output: { ...output, toolCalls } } },
  ]);
  if (!trajectory) throw new Error('one run');
  return trajectory;
}

describe('issue 30: tool names the model chose are read as data by trajectory checks', () => {
  it('max_calls_per_tool counts constructor and __proto__ calls as numbers', async () => {
    const testCase = JSON.parse(
      '{"test_id":"limits","expect":{"max_calls_per_tool":{"constructor":2,"__proto__":0}}}',
    ) as TrajectoryCase;
    const result = await scoreTrajectory(
      testCase,
      run(['constructor', 'toString', '__proto__', 'constructor']),
    );
    expect(result.checks.map((check) => check.message)).toEqual([
      '__proto__ was called 1 times, at most 0 allowed',
    ]);
  });

  it('a forbidden call beside constructor, toString and hasOwnProperty calls fails the never mode', async () => {
    const result = await scoreTrajectory(
      { test_id: 'never', expect: { calls: [{ tool: 'close_account' }], mode: 'never' } },
      run(['constructor', 'toString', 'hasOwnProperty', 'close_account']),
    );
    expect(result.status).toBe('fail');
    expect(result.checks.map((check) => check.message)).toEqual([
      'forbidden call close_account made at step 3',
    ]);
  });
});
