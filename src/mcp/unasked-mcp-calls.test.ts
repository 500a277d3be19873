import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreTrajectory } from '../scoring/trajectory/score-trajectory.js';
import { stepCountCheck } from '../scoring/trajectory/step-count-check.js';
import type { Interaction } from '../trace/trace.js';
import type { Trajectory, TrajectoryCall, Turn } from '../trace/trajectory.js';
import type { AnsweredToolCall } from './mcp-call-results.js';
import { recordedUnaskedSteps } from './recorded-unasked-steps.js';
import { withUnaskedCalls } from './unasked-mcp-calls.js';

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
const unasked = (id: string, startedAt: number): AnsweredToolCall => ({
  id,
  sessionId: 's',
  sessionGiven: true,
  startedAt,
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
    turns: perTurn.map((_, index) => ({
      ...turnAt(index),
      calls: calls.filter((call) => call.turn === index),
    })),
    calls,
    finalText: '',
    counts: { rounds: perTurn.length, calls: calls.length, byTool: { lookup: calls.length } },
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
    expect(result.counts).toEqual({ rounds: 2, calls: 5, byTool: { lookup: 3, add: 2 } });
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

describe('step limits with the MCP calls no model call asked for', () => {
  const run = trajectoryOf([1]);
  const steps = withUnaskedCalls(run, [unasked('a', 10), unasked('b', 20), unasked('c', 30)]);

  it('count them toward max_steps, max_calls_per_tool and max_repeats, and say so; max_rounds stays the model’s', () => {
    const check = stepCountCheck(
      { max_steps: 2, max_calls_per_tool: { add: 2 }, max_repeats: 2, max_rounds: 1 },
      steps,
    );
    expect(check.status).toBe('fail');
    expect(check.reasons).toEqual(['repeated_call', 'too_many_steps', 'tool_limit_exceeded']);
    expect(check.message).toContain(
      '4 tool call(s) (including 3 MCP call(s) no model call asked for), at most 2 allowed',
    );
    expect(check.details['unasked_mcp_calls']).toBe(3);
    expect(stepCountCheck({ max_calls_per_tool: { add: 2 } }, steps).message).toBe(
      'add was called 3 times (including 3 MCP call(s) no model call asked for), at most 2 allowed',
    );
    expect(stepCountCheck({ max_repeats: 2 }, steps).message).toBe(
      'add was called with the same arguments 3 times in a row (from step 1) (including 3 MCP call(s) no model call asked for), at most 2 allowed',
    );
    expect(stepCountCheck({ max_rounds: 1, max_calls_per_tool: { lookup: 1 } }, steps).status).toBe(
      'pass',
    );
  });

  it('reach only the step check of scoreTrajectory: calls, order and never read the model’s trajectory', async () => {
    const result = await scoreTrajectory(
      {
        expect: { calls: ['lookup'], mode: 'exact', max_steps: 1 },
        never: ['add'],
      },
      run,
      { stepsTrajectory: steps },
    );
    expect(result.checks.map((check) => [check.check, check.status])).toEqual([
      ['calls', 'pass'],
      ['steps', 'fail'],
      ['never', 'pass'],
    ]);
  });
});

describe('recordedUnaskedSteps', () => {
  const interaction = (id: string, startedAt: number, calls: readonly string[]): Interaction =>
    ({
      id,
      sessionId: 's',
      timing: { startedAt, firstByteMs: 1, totalMs: 1 },
      request: { tools: [], messages: [] },
      response: {
        output: {
          text: '',
          toolCalls: calls.map((name, index) => ({
            id: `${id}_${index}`,
            name,
            argumentsRaw: '{"a":1}',
            arguments: { ok: true, value: { a: 1 } },
            complete: true,
            index,
          })),
        },
      },
      status: 'complete',
    }) as unknown as Interaction;

  it('leaves out the call a model call asked for, and places the rest after the replayed turn of the same index', () => {
    // Recorded at 1000 and 2000; the replay ran at 50 and 60.
    const recorded = [interaction('r0', 1000, ['add']), interaction('r1', 2000, [])];
    const replayed = trajectoryOf([1, 0]);
    const asked = { ...unasked('asked', 1100), result: { content: [] } };
    const result = recordedUnaskedSteps(replayed, recorded, [
      asked,
      unasked('after-first', 1200),
      unasked('after-second', 2100),
    ]);
    expect(result?.calls.map((call) => [call.name, call.turn, call.unasked ?? false])).toEqual([
      ['lookup', 0, false],
      ['add', 0, true],
      ['add', 1, true],
    ]);
    expect(recordedUnaskedSteps(replayed, recorded, [asked])).toBeUndefined();
  });
});
