import type { TrajectoryCall } from '../../trace/trajectory.js';
import { compileCase } from '../compile-case.js';
import { nameMatches } from '../rule-table.js';
import type { Mismatch, ReasonCode, ScoreOptions, TestCase } from '../types.js';
import type { CallExpectation, CallExpectationObject, CallRef } from './types.js';

/** How one call fares against one expectation. */
export interface CallMatch {
  /** The call is this expectation: the tool, and arguments scoring at least the expectation's threshold. */
  readonly matches: boolean;
  /** The tool is one the expectation names. */
  readonly named: boolean;
  readonly score: number;
  readonly reasons: readonly ReasonCode[];
  readonly mismatches: { readonly [path: string]: Mismatch };
}

export function expectationObject(expectation: CallExpectation): CallExpectationObject {
  return typeof expectation === 'string' ? { tool: expectation } : expectation;
}

export function toolsOf(expectation: CallExpectationObject): readonly string[] {
  return typeof expectation.tool === 'string' ? [expectation.tool] : expectation.tool;
}

/** Whether an expectation names a tool (exactly or by a glob). */
export function namesTool(expectation: CallExpectationObject, name: string): boolean {
  return toolsOf(expectation).some((tool) => nameMatches(tool, name));
}

/** One scoring case per expectation object, so each is checked and compiled once however many calls it meets. */
const expectationCases = new WeakMap<CallExpectationObject, TestCase>();

function caseOf(expectation: CallExpectationObject): TestCase {
  let testCase = expectationCases.get(expectation);
  if (!testCase) {
    testCase = {
      expected_tool: toolsOf(expectation),
      arguments: expectation.arguments ?? {},
      ...(expectation.rules ? { rules: expectation.rules } : {}),
      extra_arguments: expectation.extra_arguments ?? 'ignore',
      pass_threshold: expectation.pass_threshold ?? 1,
    };
    expectationCases.set(expectation, testCase);
  }
  return testCase;
}

/** The tool names an expectation is written for, joined for messages. */
export function toolLabel(expectation: CallExpectationObject): string {
  return toolsOf(expectation).join('|');
}

const unnamed: CallMatch = {
  matches: false,
  named: false,
  score: 0,
  reasons: ['wrong_tool'],
  mismatches: {},
};
const nameOnly: CallMatch = { matches: true, named: true, score: 1, reasons: [], mismatches: {} };

/**
 * Whether a call meets an expectation, scored by the call scorer so every matching strategy
 * applies. Argument expectations are partial by default. An incomplete call (its stream was cut)
 * meets no expectation that looks at arguments: what it would have sent is unknown.
 */
export function matchCall(
  expectation: CallExpectationObject,
  call: TrajectoryCall,
  options: ScoreOptions,
): CallMatch {
  if (!namesTool(expectation, call.name)) return unnamed;
  if (expectation.arguments === undefined && expectation.rules === undefined) return nameOnly;
  // Options were checked where the trajectory scoring began (they may carry judges, which scoreCall does not take).
  const result = compileCase(caseOf(expectation), 'call expectation:').score(
    [{ name: call.name, arguments: call.argumentsRaw }],
    options,
  );
  return {
    matches: result.is_correct && call.complete,
    named: true,
    score: result.score,
    reasons: result.reasons,
    mismatches: result.mismatches,
  };
}

export function refOf(call: TrajectoryCall): CallRef {
  return {
    step: call.step,
    round: call.turn,
    index: call.index,
    tool: call.name,
    id: call.id ?? null,
  };
}

/** Every expectation against every call, once: the checks read this table. */
export function matchTable(
  expectations: readonly CallExpectationObject[],
  calls: readonly TrajectoryCall[],
  options: ScoreOptions,
): CallMatch[][] {
  return expectations.map((expectation) =>
    calls.map((call) => matchCall(expectation, call, options)),
  );
}
