import type { CaseResult } from '../../src/scoring/case-result.js';

/** A case result for pure tests of gates and merges: a passing default-run case unless told otherwise. */
export function caseResult(test_id: string, extra: Partial<CaseResult> = {}): CaseResult {
  return {
    run: 'default',
    test_id,
    index: 0,
    tags: [],
    tools: [],
    session: test_id,
    status: 'pass',
    score: 1,
    call: null,
    trajectory: null,
    calls: [],
    problems: [],
    error: null,
    duration_ms: 1,
    rounds: 1,
    tokens: { input: 0, output: 0 },
    agent: null,
    ...extra,
  };
}
