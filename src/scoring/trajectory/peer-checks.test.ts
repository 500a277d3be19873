import { describe, expect, it } from 'vitest';
import { sequence, trajectory } from '../../../test/support/trajectory.js';
import type { Trajectory, TrajectoryCall } from '../../trace/trajectory.js';
import { CalltapeError } from '../../errors.js';
import { deterministicChecks, scoreTrajectory } from './score-trajectory.js';
import type { Expectations } from './types.js';

const checks = (expect: Expectations, run: Trajectory) => deterministicChecks({ expect }, run);
/** The run with results attached to its calls: `true` an error result, `false` a success, a string the result text. */
function withResults(
  run: Trajectory,
  results: readonly (boolean | string | undefined)[],
): Trajectory {
  const calls = run.calls.map((call, step): TrajectoryCall => {
    const result = results[step];
    return {
      ...call,
      result:
        result === undefined
          ? undefined
          : typeof result === 'string'
            ? { text: result, isError: undefined }
            : { text: result ? 'boom' : 'ok', isError: result },
    };
  });
  return {
    ...run,
    calls,
    turns: run.turns.map((turn) => ({
      ...turn,
      calls: calls.filter((call) => call.turn === turn.index),
    })),
  };
}

describe('peer checks (issue 17)', () => {
  it('min_rounds counts model responses, min/max_user_turns count user messages', () => {
    const run = {
      ...sequence(['search']),
      counts: { ...sequence(['search']).counts, userTurns: 2 },
    };
    expect(checks({ min_rounds: 2 }, run)[0]).toMatchObject({
      check: 'steps',
      status: 'fail',
      reasons: ['too_few_rounds'],
    });
    expect(checks({ min_rounds: 1, min_user_turns: 2, max_user_turns: 2 }, run)[0]?.status).toBe(
      'pass',
    );
    expect(checks({ max_user_turns: 1 }, run)[0]?.reasons).toEqual(['too_many_user_turns']);
    expect(checks({ min_user_turns: 3 }, run)[0]?.reasons).toEqual(['too_few_user_turns']);
  });

  it('unordered: every expected call once, in any order, and no other call', () => {
    const expect_ = { calls: ['a', 'b'], mode: 'unordered' } as const;
    expect(checks(expect_, sequence(['b'], ['a']))[0]?.status).toBe('pass');
    expect(checks(expect_, sequence(['b'], ['a'], ['a']))[0]).toMatchObject({
      status: 'fail',
      reasons: ['unexpected_call'],
    });
    expect(checks(expect_, sequence(['b'], ['c']))[0]?.reasons).toEqual([
      'missing_call',
      'unexpected_call',
    ]);
    // all takes the extra call (that is what max_steps was for).
    expect(
      checks({ calls: ['a', 'b'], mode: 'all' }, sequence(['b'], ['a'], ['a']))[0]?.status,
    ).toBe('pass');
  });

  it('pass_threshold passes a calls check at a partial score, keeping what fell short in details', () => {
    const [result] = checks({ calls: ['a', 'b'], pass_threshold: 0.5 }, sequence(['a']));
    expect(result).toMatchObject({ status: 'pass', score: 0.5, reasons: [], message: null });
    expect(result?.details['forgiven']).toEqual(['missing_call']);
    expect(
      checks({ calls: ['a', 'b', 'c'], pass_threshold: 0.5 }, sequence(['a']))[0]?.status,
    ).toBe('fail');
  });

  it('never_before: never refund before lookup', () => {
    const rule = { never_before: ['refund', 'lookup'] };
    expect(checks(rule, sequence(['lookup'], ['refund']))[0]?.status).toBe('pass');
    expect(checks(rule, sequence(['refund']))[0]?.status).toBe('pass');
    expect(checks(rule, sequence(['refund'], ['lookup']))[0]).toMatchObject({
      check: 'order',
      status: 'fail',
      reasons: ['forbidden_order'],
    });
    // One parallel turn has no order.
    expect(checks(rule, trajectory([[['refund'], ['lookup']]]))[0]?.status).toBe('pass');
  });

  it('same_round: calls made together in one parallel round', () => {
    const rule = { same_round: ['weather', 'news'] };
    expect(checks(rule, trajectory([[['news'], ['weather']]]))[0]).toMatchObject({
      check: 'grouping',
      status: 'pass',
    });
    expect(checks(rule, sequence(['weather'], ['news']))[0]).toMatchObject({
      status: 'fail',
      reasons: ['not_same_round'],
    });
    expect(checks({ same_round: [['a', 'a']] }, trajectory([[['a']]]))[0]?.status).toBe('fail');
  });

  it('still reads the old names min_turns, max_turns and same_turn as rounds', () => {
    const run = sequence(['weather'], ['news']);
    expect(checks({ min_turns: 3 }, run)[0]?.reasons).toEqual(['too_few_rounds']);
    expect(checks({ max_turns: 1 }, run)[0]?.reasons).toEqual(['too_many_rounds']);
    expect(checks({ max_turns: 1, max_rounds: 2 }, run)[0]?.status).toBe('pass');
    expect(checks({ same_turn: ['weather', 'news'] }, run)[0]?.reasons).toEqual(['not_same_round']);
  });

  it('globs in tool names and rule paths', async () => {
    const run = sequence(['search_web', { user_id: 'U1', query: 'x' }]);
    expect(checks({ calls: ['search_*'] }, run)[0]?.status).toBe('pass');
    expect(checks({ calls: ['search_*'], unlisted: 'fail' }, run)[0]?.status).toBe('pass');
    const ruled = await scoreTrajectory(
      {
        expect: {
          calls: [
            {
              tool: 'search_*',
              rules: { '*_id': { matching_strategy: 'regex', pattern: 'U\\d+' } },
            },
          ],
        },
      },
      run,
    );
    expect(ruled.pass).toBe(true);
    const broken = await scoreTrajectory(
      {
        expect: {
          calls: [
            {
              tool: 'search_*',
              rules: { '*_id': { matching_strategy: 'regex', pattern: 'X\\d+' } },
            },
          ],
        },
      },
      run,
    );
    expect(broken.pass).toBe(false);
  });

  it('step status: max_failed_calls, must_succeed and recovered read tool results', () => {
    const run = withResults(sequence(['pay'], ['pay'], ['notify']), [
      true,
      false,
      '{"error": "smtp down"}',
    ]);
    expect(checks({ max_failed_calls: 1 }, run)[0]).toMatchObject({
      check: 'status',
      status: 'fail',
      reasons: ['too_many_failed_calls'],
    });
    expect(checks({ max_failed_calls: 2, must_succeed: ['pay'] }, run)[0]?.status).toBe('pass');
    expect(checks({ must_succeed: ['notify', 'refund'] }, run)[0]?.reasons).toEqual([
      'tool_failed',
    ]);
    const [recovered] = checks({ recovered: true }, run);
    expect(recovered).toMatchObject({ status: 'fail', reasons: ['unrecovered_failure'] });
    expect(recovered?.message).toMatch(/^notify \(step 2\) failed/);
    expect(
      checks({ recovered: true }, withResults(sequence(['pay'], ['pay']), [true, false]))[0]
        ?.status,
    ).toBe('pass');
  });

  it('refuses unknown keys in expect and in call expectations, naming them', () => {
    const thrown = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        if (error instanceof CalltapeError) return error.message;
      }
      return 'nothing thrown';
    };
    expect(
      thrown(() =>
        deterministicChecks({ test_id: 'T', expect: { max_step: 3 } as never }, sequence()),
      ),
    ).toBe(
      'trajectory case "T": expect: unknown key "max_step" (known: calls, mode, unlisted, pass_threshold, before, never_before, same_round, same_turn, min_steps, max_steps, min_rounds, max_rounds, min_turns, max_turns, min_user_turns, max_user_turns, max_calls_per_tool, max_repeats, max_failed_calls, must_succeed, recovered)',
    );
    expect(
      thrown(() =>
        deterministicChecks(
          { never: [{ tool: 'a', rules: { q: { values: ['x'] } } } as never] },
          sequence(),
        ),
      ),
    ).toMatch(/^trajectory case: never\[0\]\.rules\.q: unknown key "values"/);
    expect(
      thrown(() =>
        deterministicChecks({ expect: { calls: ['a'] } }, sequence(), { tools: [] } as never),
      ),
    ).toMatch(/unknown key "tools"/);
  });
});
