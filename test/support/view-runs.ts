import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { jsonReport } from '../../src/report/json-report.js';
import type { SuiteRunResult } from '../../src/report/run-result.js';
import { summariseConfiguration } from '../../src/runner/gates.js';
import { behaviourDiff } from '../../src/runner/behaviour-diff.js';
import { RunStore } from '../../src/runner/run-store.js';
import type { CaseResult } from '../../src/scoring/case-result.js';
import { caseResult } from './case-result.js';

/** The bank demo's committed cassette: sessions TC-001…TC-022, each a real recorded conversation. */
export const bankCassette = join(packageRoot, 'recordings/bank-demo.sqlite');

const balance = (test_id: string, index: number, extra: Partial<CaseResult> = {}): CaseResult =>
  caseResult(test_id, {
    index,
    tags: ['balance'],
    tools: ['get_balance'],
    calls: [
      { name: 'get_balance', arguments: '{"account_type":"savings"}', mocked: false, round: 1 },
    ],
    duration_ms: 1200,
    rounds: 2,
    tokens: { input: 510, output: 42 },
    ...extra,
  });

/** A case whose call got an argument wrong: `currency` was not expected, `account_type` differs. */
const wrongArguments = (index: number): CaseResult =>
  balance('TC-010', index, {
    status: 'fail',
    score: 0.5,
    calls: [
      {
        name: 'get_balance',
        arguments: '{"account_type":"checking","currency":"EUR"}',
        mocked: false,
        round: 1,
      },
    ],
    call: {
      is_correct: false,
      score: 0.5,
      mismatches: {
        account_type: {
          expected: 'savings',
          actual: 'checking',
          reason: 'value_mismatch',
          strategy: 'exact',
          score: 0,
        },
        currency: {
          expected: undefined,
          actual: 'EUR',
          reason: 'unexpected_argument',
          strategy: 'exact',
          score: 0,
        },
      },
      error_message: null,
      reasons: ['unexpected_argument', 'value_mismatch'],
      details: { assignment: [0], matched_tools: ['get_balance'], extra_calls: 0 },
    },
    problems: ['account_type: expected "savings", got "checking"', 'currency: not expected'],
  });

/** A repeated case whose samples disagreed. */
const flaky = (index: number): CaseResult =>
  balance('TC-005', index, {
    samples: {
      passed: 2,
      total: 3,
      flaky: true,
      min_pass_rate: 0.6,
      results: [1, 2, 3].map((sample) => ({
        sample,
        session: sample === 1 ? 'TC-005' : `TC-005#${sample}`,
        status: sample === 2 ? ('fail' as const) : ('pass' as const),
        score: sample === 2 ? 0 : 1,
        calls: [],
        problems: [],
        error: null,
        duration_ms: 400,
        rounds: 2,
        tokens: { input: 170, output: 14 },
      })),
    },
  });

/** A two-turn conversation whose second turn a judge failed. */
const conversation = (index: number): CaseResult =>
  balance('TC-020', index, {
    status: 'fail',
    score: 0.5,
    tags: ['conversation'],
    conversation: {
      turns: [
        {
          turn: 1,
          user: 'What is my savings balance?',
          reply: 'You have $5,120.40 in savings.',
          calls: [
            {
              name: 'get_balance',
              arguments: '{"account_type":"savings"}',
              mocked: false,
              round: 1,
            },
          ],
          rounds: 2,
          status: 'pass',
          score: 1,
          call: null,
          trajectory: null,
          problems: [],
        },
        {
          turn: 2,
          user: 'Move all of it to checking.',
          reply: 'Done, I moved everything.',
          calls: [],
          rounds: 1,
          status: 'fail',
          score: 0,
          call: null,
          trajectory: {
            pass: false,
            status: 'fail',
            score: 0,
            reasons: ['judge_failed'],
            checks: [
              {
                check: 'judge',
                status: 'fail',
                score: 0,
                reasons: ['judge_failed'],
                message: 'confirms-transfers: failed',
                details: { pass: false, reason: 'claimed a transfer it never made' },
              },
            ],
          },
          problems: ['confirms-transfers: claimed a transfer it never made'],
        },
      ],
      ended_by: 'script',
      ended_reason: null,
      mean_turn_score: 0.5,
      all_turns_pass: false,
    },
  });

function suiteRun(cases: readonly CaseResult[], extra: Partial<SuiteRunResult>): SuiteRunResult {
  return {
    suite: 'bank',
    file: join(packageRoot, 'examples/bank/suite.yaml'),
    mode: 'replay',
    drive: 'agent',
    cassette: bankCassette,
    started_at: '2026-12-01T12:00:00.000Z',
    duration_ms: 4200,
    runs: [summariseConfiguration(cases, 'default', 'claude-sonnet-4-5', null)],
    cases,
    gates: [
      {
        gate: 'pass_rate',
        run: 'default',
        subject: null,
        threshold: 0.95,
        actual: cases.filter((item) => item.status === 'pass').length / cases.length,
        pass: cases.every((item) => item.status === 'pass'),
        message: 'pass rate at least 95%',
      },
    ],
    passed: cases.every((item) => item.status === 'pass'),
    ...extra,
  };
}

/**
 * A runs database for the view's tests: run 1 (main, all passing), run 2 (a branch where TC-010
 * regressed, compared with run 1, with replay misses), and run 3 whose names and arguments are
 * hostile markup, in another suite. The cases point at the bank demo's cassette.
 */
export function storeViewRuns(runsDb: string): void {
  const before = [balance('TC-001', 0), flaky(1), balance('TC-010', 2)];
  const after = [balance('TC-001', 0), flaky(1), wrongArguments(2), conversation(3)];
  const store = new RunStore(runsDb);
  try {
    const save = (result: SuiteRunResult, exitCode: number): number =>
      store.save(result, exitCode, jsonReport(result, exitCode));
    save(suiteRun(before, { git: { commit: '1a2b3c4d5e6f', branch: 'main' } }), 0);
    const second = suiteRun(after, {
      started_at: '2026-12-02T09:30:00.000Z',
      git: { commit: '9f8e7d6c5b4a', branch: 'feature/eur' },
      baseline: {
        kind: 'recorded',
        label: 'run #1',
        run_id: 1,
        started_at: '2026-12-01T12:00:00.000Z',
        commit: '1a2b3c4d5e6f',
        branch: 'main',
        diff: behaviourDiff(before, after),
      },
      replay_misses: {
        groups: [
          {
            field: 'messages[0].content',
            meaning: 'the system prompt',
            difference:
              'messages[0].content: "You are a bank assistant." → "You are a helpful bank assistant."',
            cases: ['TC-010'],
          },
        ],
        record_command: 'calltape test examples/bank/suite.yaml --mode record',
      },
    });
    save(second, 1);
    const hostile = '<img src=x onerror="window.hacked=1">';
    save(
      suiteRun(
        [
          caseResult(`${hostile}case`, {
            tags: [`<script>window.hacked=2</script>`],
            tools: [`${hostile}tool`],
            calls: [
              {
                name: `${hostile}tool`,
                arguments: `{"q":"${hostile.replaceAll('"', '\\"')}"}`,
                mocked: false,
                round: 1,
              },
            ],
            problems: [`${hostile} problem`],
          }),
        ],
        { suite: `${hostile}suite`, started_at: '2026-12-03T08:00:00.000Z' },
      ),
      0,
    );
  } finally {
    store.close();
  }
}
