import { expectedCallsOf } from './first-sight.js';
import { nameMatcher } from './rule-table.js';
import { scoreCall } from './score-call.js';
import type { ActualCall, ExpectedCall, ScoreOptions, ScoreResult, TestCase } from './types.js';

/**
 * Agent mode's call scoring. An agent looks things up before it acts, so a case's expected call
 * is judged against the agent's calls to that tool (its alternatives' tools too) — the best of
 * them unless the case sets `multiple_calls` — never against whichever call came first. Calls to
 * other tools are the trajectory checks' business (`unlisted: fail`, `never`, `max_steps`). A
 * negative case (`expected_tool: null`) still sees every call. Pure.
 *
 * `testCase` must carry `multiple_calls` already (agent mode's default is `best`; the caller
 * keeps one merged case object per case, as `scoreCall` compiles a case per object).
 */
export function scoreAgentCalls(
  testCase: TestCase,
  calls: readonly ActualCall[],
  options: ScoreOptions,
): ScoreResult {
  const expected = expectedCallsOf(testCase);
  if (expected.length === 0) return scoreCall(testCase, calls, options);
  const accepts = expected.map((call) =>
    nameMatcher([
      ...(typeof call.expected_tool === 'string' ? [call.expected_tool] : call.expected_tool),
      ...(call.alternatives ?? []).map((alternative) => alternative.tool),
    ]),
  );
  const indexes = calls.flatMap((call, index) =>
    accepts.some((accept) => accept(call.name)) ? [index] : [],
  );
  const result = scoreCall(
    testCase,
    indexes.map((index) => calls[index] as ActualCall),
    options,
  );
  if (indexes.length === 0 && calls.length > 0)
    // Nothing to pair: say which tool was never called and what was, not "no tool call was made".
    return {
      ...result,
      reasons: ['wrong_tool'],
      error_message: `the agent never called ${expected.map(label).join(', ')} (it called ${[...new Set(calls.map((call) => call.name))].join(', ')})`,
    };
  return {
    ...result,
    details: {
      ...result.details,
      // Indexes into the agent's whole run, as direct mode gives them.
      assignment: result.details.assignment.map((column) =>
        column === null ? null : (indexes[column] ?? null),
      ),
    },
  };
}

function label(call: ExpectedCall): string {
  return typeof call.expected_tool === 'string'
    ? call.expected_tool
    : call.expected_tool.join(' or ');
}
