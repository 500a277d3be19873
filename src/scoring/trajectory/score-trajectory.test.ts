import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sequence, trajectory, type CallSpec } from '../../../test/support/trajectory.js';
import { scoreTrajectory } from './score-trajectory.js';
import { toolCallCheck } from './tool-call-check.js';
import type { CallMode, Expectations, TrajectoryCase } from './types.js';

const check = (expect: Expectations, run: ReturnType<typeof trajectory>) =>
  toolCallCheck(expect, run, {});
const search = (q: string): CallSpec => ['search', { q }];

describe('tool call check: modes', () => {
  const run = sequence(search('refund policy'), ['fetch', { id: 7 }], ['reply']);

  it('all: every expectation met in any order; a missing one fails with partial credit', () => {
    expect(check({ calls: ['reply', 'search'] }, run)).toMatchObject({
      status: 'pass',
      score: 1,
      reasons: [],
    });
    const missing = check({ calls: ['search', 'escalate'] }, run);
    expect(missing).toMatchObject({
      status: 'fail',
      score: 0.5,
      reasons: ['missing_call'],
      message: 'escalate was not called',
    });
  });

  it('any: one met expectation is enough', () => {
    expect(check({ calls: ['escalate', 'fetch'], mode: 'any' }, run).status).toBe('pass');
    expect(check({ calls: ['escalate', 'refund'], mode: 'any' }, run)).toMatchObject({
      status: 'fail',
      reasons: ['missing_call'],
    });
  });

  it('ordered: listed order with other calls between; the wrong order says out_of_order', () => {
    expect(check({ calls: ['search', 'reply'], mode: 'ordered' }, run).status).toBe('pass');
    const wrong = check({ calls: ['reply', 'search'], mode: 'ordered' }, run);
    expect(wrong).toMatchObject({ status: 'fail', score: 0.5, reasons: ['out_of_order'] });
  });

  it('exact: this sequence and nothing else', () => {
    expect(check({ calls: ['search', 'fetch', 'reply'], mode: 'exact' }, run).status).toBe('pass');
    const extra = check({ calls: ['search', 'reply'], mode: 'exact' }, run);
    expect(extra).toMatchObject({ status: 'fail', reasons: ['unexpected_call'] });
    expect(extra.score).toBeCloseTo(2 / 3, 9);
  });

  it('subset: every call made is among the expected; superset: the calls made contain the expected', () => {
    expect(
      check({ calls: ['search', 'fetch', 'reply', 'escalate'], mode: 'subset' }, run).status,
    ).toBe('pass');
    expect(check({ calls: ['search', 'reply'], mode: 'subset' }, run)).toMatchObject({
      status: 'fail',
      reasons: ['unexpected_call'],
    });
    expect(check({ calls: ['search', 'reply'], mode: 'superset' }, run).status).toBe('pass');
    expect(check({ calls: ['search', 'escalate'], mode: 'superset' }, run).status).toBe('fail');
  });

  it('never: names, and names with argument conditions', () => {
    expect(check({ calls: ['send_email'], mode: 'never' }, run).status).toBe('pass');
    expect(check({ calls: ['fetch'], mode: 'never' }, run)).toMatchObject({
      status: 'fail',
      reasons: ['forbidden_call'],
    });
    // Only fetching id 9 is forbidden: fetching 7 is fine.
    expect(
      check({ calls: [{ tool: 'fetch', arguments: { id: 9 } }], mode: 'never' }, run).status,
    ).toBe('pass');
    expect(
      check({ calls: [{ tool: 'fetch', arguments: { id: 7 } }], mode: 'never' }, run).status,
    ).toBe('fail');
  });

  it('unlisted: fail rejects any tool outside the list', () => {
    expect(check({ calls: ['search'], unlisted: 'fail' }, run)).toMatchObject({
      status: 'fail',
      reasons: ['unlisted_tool'],
      message: 'unlisted tool(s) called: fetch, reply',
    });
    expect(check({ calls: ['search'] }, run).status).toBe('pass');
  });

  it('an empty trajectory meets nothing, breaks no never, and an empty expectation list holds', () => {
    const empty = trajectory([]);
    expect(check({ calls: ['search'] }, empty)).toMatchObject({
      status: 'fail',
      score: 0,
      reasons: ['missing_call'],
    });
    expect(check({ calls: ['search'], mode: 'never' }, empty).status).toBe('pass');
    expect(check({ calls: [], mode: 'exact' }, empty).status).toBe('pass');
    expect(check({ calls: ['search'], mode: 'subset' }, empty).status).toBe('pass');
  });
});

describe('tool call check: the traps', () => {
  it('duplicate expectations under all are consumed one-to-one: one call never meets two', () => {
    const once = sequence(search('a'));
    expect(check({ calls: [search('a')[0], search('a')[0]] }, once)).toMatchObject({
      status: 'fail',
      score: 0.5,
    });
    expect(check({ calls: [{ tool: 'search', times: 2 }] }, once)).toMatchObject({
      status: 'fail',
      score: 0.5,
    });
    expect(
      check({ calls: [{ tool: 'search', times: 2 }] }, sequence(search('a'), search('b'))).status,
    ).toBe('pass');
  });

  it('times, min and max bound how often a matching call was made', () => {
    const thrice = sequence(search('a'), search('b'), search('c'));
    expect(check({ calls: [{ tool: 'search', times: 2 }] }, thrice)).toMatchObject({
      status: 'fail',
      reasons: ['too_many_calls'],
      message: 'search was called 3 times, at most 2 expected',
    });
    expect(check({ calls: [{ tool: 'search', min: 2, max: 3 }] }, thrice).status).toBe('pass');
    expect(
      check({ calls: [{ tool: 'search', max: 1, arguments: { q: 'a' } }] }, thrice).status,
    ).toBe('pass');
  });

  it('overlapping argument expectations in a parallel turn are paired so both are met', () => {
    // A greedy matcher gives the Paris call to the catch-all expectation first and then misses Paris.
    const parallel = trajectory([
      [
        ['get_weather', { city: 'Paris' }],
        ['get_weather', { city: 'Tokyo' }],
      ],
    ]);
    const calls = [
      { tool: 'get_weather' },
      {
        tool: 'get_weather',
        arguments: { city: 'paris' },
        rules: { city: { matching_strategy: 'ignore_case' as const } },
      },
    ];
    expect(check({ calls }, parallel)).toMatchObject({ status: 'pass', score: 1 });
    expect(check({ calls, mode: 'ordered' }, parallel).status).toBe('pass');
  });

  it('argument expectations use every matcher of the scoring engine, partially by default', () => {
    const run = sequence(['search', { query: 'Refund policy for EU customers', limit: '10' }]);
    expect(
      check(
        {
          calls: [
            {
              tool: 'search',
              arguments: { query: 'refund policy' },
              rules: { query: { matching_strategy: 'substring', normalise: ['loose_string'] } },
            },
          ],
        },
        run,
      ).status,
    ).toBe('pass');
    expect(check({ calls: [{ tool: 'search', arguments: { limit: 10 } }] }, run).status).toBe(
      'pass',
    );
    expect(
      check(
        {
          calls: [
            {
              tool: 'search',
              arguments: { query: '^Refund .*EU.*$' },
              rules: { query: { matching_strategy: 'regex' } },
            },
          ],
        },
        run,
      ).status,
    ).toBe('pass');
    expect(
      check(
        {
          calls: [
            {
              tool: 'search',
              arguments: { query: 'Refund policy for EU customer' },
              rules: { query: { matching_strategy: 'fuzzy', threshold: 0.9 } },
            },
          ],
        },
        run,
      ).status,
    ).toBe('pass');
    expect(
      check(
        {
          calls: [
            {
              tool: 'search',
              arguments: { limit: { $omitted: true } },
              rules: { limit: { any_of: [5, 10] } },
            },
          ],
        },
        run,
      ).status,
    ).toBe('pass');
    const strict = check(
      { calls: [{ tool: 'search', arguments: { limit: 10 }, extra_arguments: 'fail' }] },
      run,
    );
    expect(strict).toMatchObject({ status: 'fail', reasons: ['missing_call'] });
  });

  it('explains an unmet expectation by the closest call and its mismatches', () => {
    const result = check(
      { calls: [{ tool: 'fetch', arguments: { id: 9 } }] },
      sequence(['fetch', { id: 7 }]),
    );
    expect(result.message).toBe(
      'fetch was not called as expected (closest: step 0, score 0, value_mismatch)',
    );
    expect(result.details['expectations']).toEqual([
      {
        expectation: 0,
        tool: 'fetch',
        occurrence: 0,
        matched: null,
        closest: {
          call: { step: 0, round: 0, index: 0, tool: 'fetch', id: 'call_0' },
          score: 0,
          reasons: ['value_mismatch'],
          mismatches: {
            id: { expected: 9, actual: 7, reason: 'value_mismatch', strategy: 'exact', score: 0 },
          },
        },
      },
    ]);
  });

  it('a cut-off call meets no argument expectation, but a cut-off forbidden call still counts', () => {
    const run = sequence(['refund', { amount: 5 }]);
    const cut = { ...run, calls: run.calls.map((call) => ({ ...call, complete: false })) };
    expect(check({ calls: [{ tool: 'refund', arguments: { amount: 5 } }] }, cut).status).toBe(
      'fail',
    );
    expect(check({ calls: ['refund'], mode: 'never' }, cut).status).toBe('fail');
  });
});

describe('order and step checks', () => {
  it('before: A in a strictly earlier turn than the first B; calls of one parallel turn are not ordered', async () => {
    const testCase = (expectations: Expectations): TrajectoryCase => ({ expect: expectations });
    expect(
      (
        await scoreTrajectory(
          testCase({ before: ['search', 'fetch'] }),
          sequence(search('x'), ['fetch']),
        )
      ).pass,
    ).toBe(true);
    const reversed = await scoreTrajectory(
      testCase({ before: ['search', 'fetch'] }),
      sequence(['fetch'], search('x')),
    );
    expect(reversed).toMatchObject({ pass: false, reasons: ['out_of_order'] });
    expect(reversed.checks[0]?.message).toBe(
      'search (first in round 2) did not come before fetch (round 1)',
    );
    const together = await scoreTrajectory(
      testCase({ before: ['search', 'fetch'] }),
      trajectory([[search('x'), ['fetch']]]),
    );
    expect(together.pass).toBe(false);
    expect(
      (
        await scoreTrajectory(
          testCase({
            before: [
              ['search', 'fetch'],
              ['fetch', 'reply'],
            ],
          }),
          sequence(search('x'), ['fetch'], ['reply']),
        )
      ).pass,
    ).toBe(true);
    // Nothing to order when the later call never happened.
    expect(
      (await scoreTrajectory(testCase({ before: ['search', 'fetch'] }), sequence(search('x'))))
        .pass,
    ).toBe(true);
  });

  it('step limits: calls, turns, calls per tool and loops', async () => {
    const looping = sequence(search('a'), search('a'), search('a'), ['fetch']);
    const result = await scoreTrajectory(
      {
        expect: {
          max_steps: 3,
          min_steps: 1,
          max_rounds: 4,
          max_calls_per_tool: { search: 2 },
          max_repeats: 2,
        },
      },
      looping,
    );
    expect(result).toMatchObject({
      pass: false,
      reasons: ['repeated_call', 'too_many_steps', 'tool_limit_exceeded'],
    });
    expect(result.checks[0]?.score).toBeCloseTo(2 / 5, 9);
    expect(result.checks[0]?.message).toBe('4 tool call(s), at most 3 allowed');
    const ok = await scoreTrajectory(
      { expect: { max_steps: 6, max_repeats: 1, max_calls_per_tool: 3 } },
      sequence(search('a'), search('b'), search('a')),
    );
    expect(ok.pass).toBe(true);
    expect((await scoreTrajectory({ expect: { min_steps: 1 } }, trajectory([]))).reasons).toEqual([
      'too_few_steps',
    ]);
  });
});

describe('judges', () => {
  const run = sequence(search('x'));

  it('run through the injected runner and count like any check', async () => {
    const result = await scoreTrajectory({ judge: { code: './j.mjs' } }, run, {
      judges: {
        code: async (_spec, seen) => ({ pass: seen.counts.calls === 1, reason: 'one call' }),
      },
    });
    expect(result).toMatchObject({
      pass: true,
      status: 'pass',
      checks: [{ check: 'judge', status: 'pass', score: 1 }],
    });
    const failing = await scoreTrajectory({ judge: { code: './j.mjs' } }, run, {
      judges: { code: async () => ({ pass: false, score: 0.25, reason: 'promised a refund' }) },
    });
    expect(failing).toMatchObject({
      pass: false,
      status: 'fail',
      score: 0.25,
      reasons: ['judge_failed'],
      checks: [{ message: 'code judge ./j.mjs: promised a refund' }],
    });
  });

  it('a code judge that throws or answers nonsense fails its check with the error; the run goes on', async () => {
    const thrown = await scoreTrajectory(
      { expect: { calls: ['search'] }, judge: { code: './j.mjs' } },
      run,
      { judges: { code: async () => Promise.reject(new Error('timed out after 50 ms')) } },
    );
    expect(thrown).toMatchObject({
      status: 'fail',
      reasons: ['judge_error'],
      checks: [
        { status: 'pass' },
        { status: 'fail', message: 'code judge ./j.mjs: timed out after 50 ms' },
      ],
    });
    const nonsense = await scoreTrajectory({ judge: { code: './j.mjs' } }, run, {
      judges: { code: async () => 'yes' as never },
    });
    expect(nonsense.checks[0]?.message).toBe(
      'code judge ./j.mjs: answered "yes", not { pass: boolean, score?, reason? }',
    );
  });

  it('an LLM judge that cannot answer is an error, not a fail of the agent', async () => {
    const result = await scoreTrajectory(
      { expect: { calls: ['search'] }, judge: { rubric: 'Be polite' } },
      run,
      { judges: { llm: async () => Promise.reject(new Error('upstream 503')) } },
    );
    expect(result).toMatchObject({
      pass: false,
      status: 'error',
      score: 1,
      reasons: ['judge_error'],
    });
    const unconfigured = await scoreTrajectory({ judge: { rubric: 'Be polite' } }, run);
    expect(unconfigured).toMatchObject({
      status: 'error',
      checks: [
        {
          message: 'LLM judge: no llm judge runner was given (scoreTrajectory options.judges.llm)',
        },
      ],
    });
  });
});

describe('properties', () => {
  const tools = ['search', 'fetch', 'reply', 'escalate'];
  const callSpec = fc
    .tuple(fc.constantFrom(...tools), fc.record({ q: fc.constantFrom('a', 'b') }))
    .map(([name, args]): CallSpec => [name, args]);
  const turns = fc.array(fc.array(callSpec, { minLength: 1, maxLength: 3 }), { maxLength: 4 });
  const expectation = fc.oneof(
    fc.constantFrom(...tools),
    fc.record({
      tool: fc.constantFrom(...tools),
      arguments: fc.record({ q: fc.constantFrom('a', 'b') }),
    }),
  );
  const expectations = fc.array(expectation, { maxLength: 4 });

  it('permuting calls within a parallel turn never changes ordered (or any other mode)', () => {
    fc.assert(
      fc.property(
        turns,
        expectations,
        fc.constantFrom<CallMode>('all', 'any', 'ordered', 'exact', 'subset', 'superset', 'never'),
        fc.integer(),
        (specs, calls, mode, seed) => {
          const permuted = specs.map((turn, index) => {
            const rotation = Math.abs(seed + index) % turn.length;
            return [...turn.slice(rotation), ...turn.slice(0, rotation)].reverse();
          });
          const left = check({ calls, mode }, trajectory(specs));
          const right = check({ calls, mode }, trajectory(permuted));
          expect([right.status, right.score]).toEqual([left.status, left.score]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('all ⊆ any: whatever passes all passes any, and ordered implies all', () => {
    fc.assert(
      fc.property(turns, expectations, (specs, calls) => {
        const run = trajectory(specs);
        if (check({ calls, mode: 'all' }, run).status === 'pass' && calls.length > 0)
          expect(check({ calls, mode: 'any' }, run).status).toBe('pass');
        if (check({ calls, mode: 'ordered' }, run).status === 'pass')
          expect(check({ calls, mode: 'all' }, run).status).toBe('pass');
        if (check({ calls, mode: 'exact' }, run).status === 'pass')
          expect(check({ calls, mode: 'subset' }, run).status).toBe('pass');
      }),
      { numRuns: 500 },
    );
  });
});

describe('suite defaults', () => {
  it('fill expect fields the case leaves out, and add up never lists and judges', async () => {
    const { mergeChecks } = await import('./merge-checks.js');
    const merged = mergeChecks(
      {
        expect: { max_steps: 6, unlisted: 'fail' },
        never: ['send_email'],
        judge: { rubric: 'Polite.' },
      },
      {
        test_id: 'c',
        expect: { calls: ['search'], max_steps: 3 },
        never: ['delete_account'],
        judge: { code: './j.mjs' },
      },
    );
    expect(merged).toEqual({
      test_id: 'c',
      expect: { calls: ['search'], max_steps: 3, unlisted: 'fail' },
      never: ['send_email', 'delete_account'],
      judge: [{ rubric: 'Polite.' }, { code: './j.mjs' }],
    });
    expect(mergeChecks({}, { test_id: 'c' })).toEqual({ test_id: 'c' });
  });
});
