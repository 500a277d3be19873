import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory, TrajectoryCall } from '../../trace/trajectory.js';
import { nameMatches } from '../rule-table.js';
import { limitTally } from './finish-check.js';
import { refOf } from './match-expectation.js';
import type { CheckResult, Expectations } from './types.js';

/** What a call's result says: failed, succeeded, or unknown (no result came back in the run). */
export type CallOutcome = 'failed' | 'succeeded' | 'unknown';

/**
 * A call failed when its result says so: the wire's error flag (`is_error` on Anthropic and MCP,
 * a mock's error answer), or — where the wire has no flag, as in OpenAI tool messages — a result
 * that is a JSON object with an own `error` field, the shape tools and calltape mocks report
 * errors in.
 */
export function outcomeOf(call: TrajectoryCall): CallOutcome {
  const result = call.result;
  if (result === undefined) return 'unknown';
  if (result.isError !== undefined) return result.isError ? 'failed' : 'succeeded';
  const text = result.text.trimStart();
  if (!text.startsWith('{')) return 'succeeded';
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.hasOwn(value, 'error')
      ? 'failed'
      : 'succeeded';
  } catch {
    return 'succeeded';
  }
}

/** Step status: checks on what tools answered, not only on what was called — failures allowed, tools that must succeed, recovery by retry. */
export function statusCheck(limits: Expectations, trajectory: Trajectory): CheckResult {
  const { limit, finish } = limitTally();
  const outcomes = trajectory.calls.map(outcomeOf);
  const failed = trajectory.calls.filter((_, step) => outcomes[step] === 'failed');
  if (limits.max_failed_calls !== undefined)
    limit(
      'too_many_failed_calls',
      failed.length <= limits.max_failed_calls,
      `${failed.length} call(s) failed (${failed.map((call) => `${call.name} at step ${call.step}`).join(', ')}), at most ${limits.max_failed_calls} allowed`,
    );
  for (const tool of limits.must_succeed ?? []) {
    const last = trajectory.calls.findLast((call) => nameMatches(tool, call.name));
    const outcome = last === undefined ? undefined : outcomes[last.step];
    limit(
      'tool_failed',
      outcome === 'succeeded',
      last === undefined
        ? `${tool} was never called, and must succeed`
        : `${tool}: its last call (step ${last.step}) ${outcome === 'failed' ? 'failed' : 'has no result in the run'}`,
    );
  }
  const unrecovered = failed.filter(
    (call) =>
      !trajectory.calls.some(
        (later) =>
          later.step > call.step &&
          later.name === call.name &&
          outcomes[later.step] === 'succeeded',
      ),
  );
  if (limits.recovered === true)
    limit(
      'unrecovered_failure',
      unrecovered.length === 0,
      `${unrecovered.map((call) => `${call.name} (step ${call.step})`).join(', ')} failed and no later call of the same tool succeeded`,
    );
  const details: Record<string, JsonValue> = {
    failed: failed.map(refOf) as unknown as JsonValue,
    unrecovered: unrecovered.map(refOf) as unknown as JsonValue,
  };
  return finish('status', details);
}
