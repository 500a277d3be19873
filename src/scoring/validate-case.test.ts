import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../errors.js';
import type { Trajectory } from '../trace/trajectory.js';
import { schemasFromTools } from './schemas-from-tools.js';
import { scoreCall } from './score-call.js';
import { scoreTrajectory } from './trajectory/score-trajectory.js';
import type { ScoreOptions, TestCase } from './types.js';

const call = (args: Record<string, unknown>) => [
  { name: 'search', arguments: JSON.stringify(args) },
];
const thrown = (run: () => unknown): CalltapeError => {
  try {
    run();
  } catch (error) {
    if (error instanceof CalltapeError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

describe('issue 17: a rule with a pattern and no expected value is evaluated on its own', () => {
  const testCase: TestCase = {
    expected_tool: 'search',
    rules: { query: { matching_strategy: 'regex', pattern: '\\d+' } },
  };

  it('in scoreCall: a matching query passes, a query without digits fails, an absent one is missing', () => {
    expect(scoreCall(testCase, call({ query: '123' }))).toMatchObject({
      is_correct: true,
      reasons: [],
    });
    expect(scoreCall(testCase, call({ query: 'no digits' })).mismatches['query']).toMatchObject({
      reason: 'value_mismatch',
      strategy: 'regex',
      detail: 'does not match /\\d+/',
    });
    expect(scoreCall(testCase, call({})).reasons).toEqual(['missing_argument']);
  });

  it('in a trajectory expectation: "no digits" no longer passes', async () => {
    const trajectory = (query: string): Trajectory => ({
      sessionId: 's',
      turns: [],
      calls: [
        {
          id: 'c',
          name: 'search',
          argumentsRaw: JSON.stringify({ query }),
          arguments: { ok: true, value: { query } },
          complete: true,
          turn: 0,
          index: 0,
          step: 0,
          result: undefined,
          mocked: false,
        },
      ],
      finalText: '',
      counts: { rounds: 1, calls: 1, byTool: { search: 1 } },
    });
    const checks = {
      expect: {
        calls: [
          {
            tool: 'search',
            rules: { query: { matching_strategy: 'regex' as const, pattern: '\\d+' } },
          },
        ],
      },
    };
    expect((await scoreTrajectory(checks, trajectory('no digits'))).pass).toBe(false);
    expect((await scoreTrajectory(checks, trajectory('42'))).pass).toBe(true);
  });

  it('numeric ranges and any_of stand alone too', () => {
    const ranged: TestCase = {
      expected_tool: 'search',
      rules: { limit: { matching_strategy: 'numeric', min: 1, max: 10 } },
    };
    expect(scoreCall(ranged, call({ limit: '5' })).is_correct).toBe(true);
    expect(scoreCall(ranged, call({ limit: 11 })).mismatches['limit']?.detail).toBe(
      '11 is above the maximum 10',
    );
    expect(
      scoreCall(
        { expected_tool: 'search', rules: { unit: { any_of: ['c', 'f'] } } },
        call({ unit: 'f' }),
      ).is_correct,
    ).toBe(true);
  });

  it('a rule that needs an expected value and has none is refused when the case is loaded', () => {
    const error = thrown(() =>
      scoreCall(
        {
          test_id: 'TC-9',
          expected_tool: 'search',
          rules: { query: { matching_strategy: 'fuzzy' } },
        },
        call({ query: 'x' }),
      ),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(
      /^test case "TC-9": rules\.query: fuzzy compares with an expected value, and arguments\.query has none/,
    );
    expect(
      thrown(() =>
        scoreCall(
          { expected_tool: 'search', arguments: {}, rules: { 'filters.lang': { any_of: ['en'] } } },
          call({}),
        ),
      ).message,
    ).toMatch(/rules\.filters\.lang: the rule is checked inside arguments\.filters/);
  });
});

describe('issue 17: library calls never silently ignore input', () => {
  it.each(['values', 'optional', 'strategy'])(
    'an unknown rule key "%s" is an error naming the path and the key',
    (key) => {
      const error = thrown(() =>
        scoreCall(
          {
            expected_tool: 'search',
            arguments: { q: 'a' },
            rules: { q: { [key]: ['a'] } as never },
          },
          call({ q: 'a' }),
        ),
      );
      expect(error.message).toContain(`rules.q: unknown key "${key}"`);
    },
  );

  it('an unknown option is an error (tools is not an option: give schemas)', () => {
    const options = { tools: [] } as unknown as ScoreOptions;
    expect(
      thrown(() => scoreCall({ expected_tool: 'search' }, call({}), options)).message,
    ).toContain('scoreCall options: unknown key "tools"');
  });

  it('unknown keys in expected calls, alternatives and the case itself are errors with their path', () => {
    expect(
      thrown(() =>
        scoreCall({ expected_calls: [{ expected_tool: 'a', argument: {} } as never] }, []),
      ).message,
    ).toContain('expected_calls[0]: unknown key "argument"');
    expect(
      thrown(() =>
        scoreCall({ expected_tool: 'a', alternatives: [{ tool: 'b', rule: {} } as never] }, []),
      ).message,
    ).toContain('alternatives[0]: unknown key "rule"');
    expect(
      thrown(() => scoreCall({ expected_tool: 'a', extra_argument: 'ignore' } as never, []))
        .message,
    ).toContain('test case: unknown key "extra_argument"');
  });

  it('validates a case once, when it is first seen, compiles it when it is seen again, and reads it no more', () => {
    let reads = 0;
    const testCase = { expected_tool: 'search', arguments: { q: 'a' } } as TestCase;
    const rules = { q: { matching_strategy: 'ignore_case' as const } };
    Object.defineProperty(testCase, 'rules', { enumerable: true, get: () => (reads++, rules) });
    expect(scoreCall(testCase, call({ q: 'A' })).is_correct).toBe(true);
    expect(scoreCall(testCase, call({ q: 'A' })).is_correct).toBe(true);
    const compiled = reads;
    for (let i = 0; i < 5; i++) expect(scoreCall(testCase, call({ q: 'A' })).is_correct).toBe(true);
    expect(reads).toBe(compiled);
  });

  it('throws the same error for a schema that does not compile on first sight, when compiling and compiled', () => {
    // The first scoring is the reference scorer's: it must refuse the schema the compiled scorer refuses, named alike.
    const broken = { type: 'object', properties: { q: { type: 'no-such-type' } } };
    // The options' schemas are checked where they are used (a case's own, when it is loaded).
    const schemas = {
      search: broken,
      lookup: { type: 'object', properties: { q: { type: 'nothing' } } },
    };
    const testCase: TestCase = {
      expected_calls: [{ expected_tool: 'lookup' }, { expected_tool: 'search' }],
    };
    // Sent in the other order: the first pair walked is lookup's (expected call by expected call).
    const calls = [
      { name: 'search', arguments: {} },
      { name: 'lookup', arguments: {} },
    ];
    const messages = [1, 2, 3].map(
      () => thrown(() => scoreCall(testCase, calls, { schemas })).message,
    );
    expect(messages[0]).toMatch(/^scoreCall options\.schemas\.lookup: the schema does not compile/);
    expect(new Set(messages).size).toBe(1);
    // A call whose arguments are no object is never checked against a schema, first seen or not.
    const unparsed = { expected_tool: 'search' };
    for (let i = 0; i < 3; i++)
      expect(
        scoreCall(unparsed, [{ name: 'search', arguments: '{no' }], { schemas }).reasons,
      ).toEqual(['invalid_json']);
    // Nor is a call of a tool no expectation accepts.
    const other = { expected_tool: 'lookup' };
    for (let i = 0; i < 3; i++)
      expect(scoreCall(other, call({}), { schemas: { search: 5 as never } }).reasons).toEqual([
        'wrong_tool',
      ]);
  });

  it('reports a schema that cannot be compiled instead of skipping validation', () => {
    const broken = { type: 'object', properties: { q: { type: 'no-such-type' } } };
    expect(
      thrown(() => scoreCall({ expected_tool: 'search', schemas: { search: broken } }, call({})))
        .message,
    ).toMatch(/schemas\.search: the schema does not compile/);
    expect(
      thrown(() =>
        scoreCall({ expected_tool: 'search' }, call({}), { schemas: { search: broken } }),
      ).message,
    ).toMatch(/^scoreCall options\.schemas\.search: the schema does not compile/);
  });
});

describe("issue 17: schemasFromTools reads every provider's tools shape", () => {
  const parameters = { type: 'object', properties: { q: { type: 'string' } } };
  it.each([
    ['the trace', { name: 'search', description: undefined, parameters, strict: undefined }],
    ['Chat Completions', { type: 'function', function: { name: 'search', parameters } }],
    ['Responses', { type: 'function', name: 'search', parameters }],
    ['Anthropic', { name: 'search', input_schema: parameters }],
  ])('%s', (_wire, tool) => {
    expect(schemasFromTools([tool as never])).toEqual({ search: parameters });
  });

  it('leaves out built-in tools, gives {} to a tool without parameters and refuses what it cannot read', () => {
    expect(
      schemasFromTools([
        { type: 'web_search_preview' },
        { type: 'function', function: { name: 'now' } },
      ] as never),
    ).toEqual({ now: {} });
    expect(thrown(() => schemasFromTools([{ function: 'search' }] as never)).message).toMatch(
      /tools\[0\]: not a tool definition/,
    );
  });
});

describe('a case regex the linear-time engine cannot run', () => {
  it('is refused when the case is read, naming the rule, instead of failing mid-run', () => {
    const testCase: TestCase = {
      expected_tool: 'search',
      arguments: { query: 'x' },
      rules: { query: { matching_strategy: 'regex', pattern: '(?=x)x' } },
    };
    const error = thrown(() => scoreCall(testCase, call({ query: 'x' })));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(
      /rules\.query\.pattern: the regex does not compile: .*RE2 syntax/,
    );
  });
});
