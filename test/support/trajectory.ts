import type { JsonValue } from '../../src/trace/trace.js';
import type { Trajectory, TrajectoryCall, Turn } from '../../src/trace/trajectory.js';

/** A call as tests write it: a tool name and its arguments. */
export type CallSpec = readonly [name: string, args?: { readonly [key: string]: JsonValue }];

/** A trajectory from turns of calls: `[[['search', {q: 'a'}]], [['fetch']]]` is two turns. */
export function trajectory(turns: readonly (readonly CallSpec[])[], text = ''): Trajectory {
  const calls: TrajectoryCall[] = [];
  const byTool: Record<string, number> = {};
  const built = turns.map((specs, turnIndex): Turn => {
    const turnCalls = specs.map(([name, args], index): TrajectoryCall => {
      const argumentsRaw = JSON.stringify(args ?? {});
      const call: TrajectoryCall = {
        id: `call_${calls.length}`,
        name,
        argumentsRaw,
        arguments: { ok: true, value: args ?? {} },
        complete: true,
        turn: turnIndex,
        index,
        step: calls.length,
        result: undefined,
        mocked: false,
      };
      calls.push(call);
      byTool[name] = (byTool[name] ?? 0) + 1;
      return call;
    });
    return {
      index: turnIndex,
      interactionId: `i${turnIndex}`,
      startedAt: turnIndex,
      status: 'complete',
      text: turnIndex === turns.length - 1 ? text : '',
      finishReason: undefined,
      calls: turnCalls,
    };
  });
  return {
    sessionId: 's',
    turns: built,
    calls,
    finalText: text,
    counts: { rounds: built.length, calls: calls.length, byTool },
  };
}

/** Each call in its own turn, in order. */
export function sequence(...calls: readonly CallSpec[]): Trajectory {
  return trajectory(calls.map((call) => [call]));
}
