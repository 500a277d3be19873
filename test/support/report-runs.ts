import type { SuiteRunResult } from '../../src/report/run-result.js';
import { behaviourDiff } from '../../src/runner/behaviour-diff.js';
import type { CaseResult } from '../../src/scoring/case-result.js';
import { caseResult } from './case-result.js';

// Runs the report tests render with every reporter: the terminal, Markdown and JUnit ones
// (src/report/*-reports.test.ts) and calltape view's export (test/e2e/view-export-reports.test.ts).

/** A run whose every text is `text`; with `forgeNumbers`, its numbers and status are texts too (as a forged file may hold). */
export function hostileRun(text: string, forgeNumbers = true): SuiteRunResult {
  const forged = forgeNumbers ? (text as unknown as number) : 1;
  const item = {
    run: text,
    test_id: text,
    index: 0,
    tags: [text],
    tools: [text],
    session: text,
    status: text as CaseResult['status'],
    score: forged,
    call: null,
    trajectory: null,
    calls: [{ name: text, arguments: text, mocked: true, round: forged }],
    problems: [text],
    error: text,
    duration_ms: forged,
    rounds: forged,
    tokens: { input: forged, output: forged },
    agent: { exit_code: forged, signal: text, timed_out: false, stdout: text, stderr: text },
  } satisfies CaseResult;
  return {
    suite: text,
    file: text,
    mode: 'replay',
    drive: 'agent',
    cassette: text,
    started_at: text,
    duration_ms: forged,
    runs: [
      {
        run: text,
        model: text,
        total: forged,
        passed: forged,
        failed: forged,
        errors: forged,
        unreliable: forged,
        pass_rate: forged,
        mean_score: forged,
        tools_offered: [text],
      },
    ],
    cases: [item],
    gates: [
      {
        gate: 'per_tool',
        run: text,
        subject: text,
        threshold: 1,
        actual: null,
        pass: false,
        message: text,
      },
    ],
    passed: false,
  };
}

/** A tool name and test id that is markup and breaks Markdown tables. */
export const hostileName = '<img src=x onerror=alert(1)>|`';
const call = (city: string) => ({
  name: hostileName,
  arguments: JSON.stringify({ city }),
  mocked: false,
  round: 1,
});

/** A run whose case regressed since run #7 (its arguments changed to markup), and a replay miss. */
export function comparedRun(): SuiteRunResult {
  const before = [caseResult(hostileName, { calls: [call('Paris')] })];
  const after = [
    caseResult(hostileName, {
      status: 'fail',
      score: 0.5,
      calls: [call('<b>Rome</b>')],
      problems: ['city: expected "Paris", got "<b>Rome</b>"'],
    }),
    caseResult('missed', {
      status: 'error',
      score: 0,
      error:
        'replay miss: calltape: cassette w.sqlite has no recording for POST /v1/chat/completions; the nearest recording (r1) differs at messages[0].content:\n  messages[0].content: "a" → "b"\nRecord what is missing with calltape test w.json --mode record.',
      problems: [
        'replay miss: calltape: cassette w.sqlite has no recording for POST /v1/chat/completions; the nearest recording (r1) differs at messages[0].content:\n  messages[0].content: "a" → "b"\nRecord what is missing with calltape test w.json --mode record.',
      ],
    }),
  ];
  return {
    suite: 's',
    file: 's.json',
    mode: 'replay',
    drive: 'direct',
    cassette: 'w.sqlite',
    started_at: '2026-12-03T12:00:00.000Z',
    duration_ms: 1,
    runs: [
      {
        run: 'default',
        model: null,
        total: 2,
        passed: 0,
        failed: 1,
        errors: 1,
        pass_rate: 0,
        mean_score: 0.25,
      },
    ],
    cases: after,
    gates: [],
    passed: false,
    baseline: {
      kind: 'run',
      label: 'run #7',
      run_id: 7,
      started_at: null,
      commit: null,
      branch: 'main',
      diff: behaviourDiff(before, after),
    },
  };
}

const lookup = {
  name: 'get_order',
  arguments: '{"id":"A-17"}',
  mocked: true,
  round: 2,
  user_turn: 2,
};
const conversationCase = caseResult('refund', {
  status: 'fail',
  score: 0.5,
  calls: [lookup],
  problems: ['turn 3: calls: issue_refund was not called'],
  conversation: {
    turns: [
      {
        turn: 1,
        user: 'I want a refund',
        reply: 'Which order?',
        calls: [],
        rounds: 1,
        status: 'pass',
        score: 1,
        call: null,
        trajectory: null,
        problems: [],
      },
      {
        turn: 2,
        user: 'A-17 <b>',
        reply: null,
        calls: [lookup],
        rounds: 2,
        status: 'pass',
        score: 1,
        call: null,
        trajectory: null,
        problems: [],
      },
      {
        turn: 3,
        user: 'yes',
        reply: 'Done',
        calls: [],
        rounds: 1,
        status: 'fail',
        score: 0,
        call: null,
        trajectory: null,
        problems: ['calls: issue_refund was not called'],
      },
    ],
    ended_by: 'script',
    ended_reason: null,
    mean_turn_score: 0.667,
    all_turns_pass: false,
  },
});
/** A three-turn conversation case whose last turn failed; the second user turn is markup. */
export const conversationRun: SuiteRunResult = {
  suite: 'refunds',
  file: 'refunds.yaml',
  mode: 'replay',
  drive: 'direct',
  cassette: 'c.sqlite',
  started_at: '2026-12-03T00:00:00.000Z',
  duration_ms: 1,
  runs: [
    {
      run: 'default',
      model: 'm',
      total: 1,
      passed: 0,
      failed: 1,
      errors: 0,
      unreliable: 0,
      pass_rate: 0,
      mean_score: 0.5,
      tools_offered: [],
    },
  ],
  cases: [conversationCase],
  gates: [],
  passed: false,
};
