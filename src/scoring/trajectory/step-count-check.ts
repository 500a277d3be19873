import { stableStringify } from '../../stable-stringify.js';
import type { JsonValue } from '../../trace/trace.js';
import type { Trajectory, TrajectoryCall } from '../../trace/trajectory.js';
import { limitTally } from './finish-check.js';
import type { CheckResult, Expectations } from './types.js';

/** Step limits: tool calls in the run, rounds (LLM round trips), calls per tool, and identical calls in a row (loops). */
export function stepCountCheck(limits: Expectations, trajectory: Trajectory): CheckResult {
  const { limit, finish } = limitTally();
  const { calls, rounds } = trajectory.counts;
  // The old names (`min_turns`, `max_turns`) are still read; suites warn about them.
  const minRounds = limits.min_rounds ?? limits.min_turns;
  const maxRounds = limits.max_rounds ?? limits.max_turns;
  // MCP calls no model asked for are steps too (`withUnaskedCalls`): a failure names them, or it would not add up.
  const unasked = unaskedByTool(trajectory.calls);
  const unaskedNote = (count: number): string =>
    count === 0 ? '' : ` (including ${count} MCP call(s) no model call asked for)`;
  if (limits.min_steps !== undefined)
    limit(
      'too_few_steps',
      calls >= limits.min_steps,
      `${calls} tool call(s)${unaskedNote(unasked.total)}, at least ${limits.min_steps} expected`,
    );
  if (limits.max_steps !== undefined)
    limit(
      'too_many_steps',
      calls <= limits.max_steps,
      `${calls} tool call(s)${unaskedNote(unasked.total)}, at most ${limits.max_steps} allowed`,
    );
  if (minRounds !== undefined)
    limit(
      'too_few_rounds',
      rounds >= minRounds,
      `${rounds} round(s) (LLM round trips), at least ${minRounds} expected`,
    );
  if (maxRounds !== undefined)
    limit(
      'too_many_rounds',
      rounds <= maxRounds,
      `${rounds} round(s) (LLM round trips), at most ${maxRounds} allowed`,
    );
  const userTurns = trajectory.counts.userTurns ?? 0;
  if (limits.min_user_turns !== undefined)
    limit(
      'too_few_user_turns',
      userTurns >= limits.min_user_turns,
      `${userTurns} user turn(s), at least ${limits.min_user_turns} expected`,
    );
  if (limits.max_user_turns !== undefined)
    limit(
      'too_many_user_turns',
      userTurns <= limits.max_user_turns,
      `${userTurns} user turn(s), at most ${limits.max_user_turns} allowed`,
    );
  const perTool = limits.max_calls_per_tool;
  if (perTool !== undefined) {
    for (const [tool, count] of Object.entries(trajectory.counts.byTool).sort(([left], [right]) =>
      left < right ? -1 : 1,
    )) {
      const max =
        typeof perTool === 'number'
          ? perTool
          : Object.hasOwn(perTool, tool)
            ? perTool[tool]
            : undefined;
      if (max !== undefined)
        limit(
          'tool_limit_exceeded',
          count <= max,
          `${tool} was called ${count} times${unaskedNote(unasked.byTool.get(tool) ?? 0)}, at most ${max} allowed`,
        );
    }
  }
  const longest = longestRepeat(trajectory.calls);
  if (limits.max_repeats !== undefined)
    limit(
      'repeated_call',
      longest.length <= limits.max_repeats,
      `${longest.tool} was called with the same arguments ${longest.length} times in a row (from step ${longest.from})${unaskedNote(longest.unasked)}, at most ${limits.max_repeats} allowed`,
    );
  const details: Record<string, JsonValue> = {
    calls,
    rounds,
    user_turns: userTurns,
    by_tool: trajectory.counts.byTool,
    longest_repeat: { tool: longest.tool, length: longest.length, from: longest.from },
    ...(unasked.total > 0 ? { unasked_mcp_calls: unasked.total } : {}),
  };
  return finish('steps', details);
}

/** The calls no model call asked for, in all and per tool. */
function unaskedByTool(calls: readonly TrajectoryCall[]): {
  total: number;
  byTool: Map<string, number>;
} {
  const byTool = new Map<string, number>();
  let total = 0;
  for (const call of calls)
    if (call.unasked) {
      total++;
      byTool.set(call.name, (byTool.get(call.name) ?? 0) + 1);
    }
  return { total, byTool };
}

/** The longest run of consecutive calls with the same tool and the same arguments (key order aside). */
function longestRepeat(calls: readonly TrajectoryCall[]): {
  tool: string;
  length: number;
  from: number;
  /** How many of the run's calls no model call asked for. */
  unasked: number;
} {
  let best = { tool: '', length: 0, from: 0, unasked: 0 };
  let run = { key: '', tool: '', length: 0, from: 0, unasked: 0 };
  for (const call of calls) {
    const key = `${call.name}\u0000${call.arguments.ok ? stableStringify(call.arguments.value) : call.argumentsRaw}`;
    const unasked = call.unasked ? 1 : 0;
    run =
      key === run.key
        ? { ...run, length: run.length + 1, unasked: run.unasked + unasked }
        : { key, tool: call.name, length: 1, from: call.step, unasked };
    if (run.length > best.length)
      best = { tool: run.tool, length: run.length, from: run.from, unasked: run.unasked };
  }
  return best;
}
