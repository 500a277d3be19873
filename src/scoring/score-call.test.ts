import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { scoreCall } from './score-call.js';
import { omitted, type TestCase } from './types.js';

const transfer: TestCase = {
  test_id: 'TC-001',
  expected_tool: 'execute_transfer',
  arguments: { recipient_id: 'USR-99281', amount: 250.0, memo: 'Rent Payment' },
  rules: { memo: { matching_strategy: 'ignore_case' } },
};

describe('scoreCall: the classic ground-truth record', () => {
  it('passes a call whose amount is a numeric string and whose memo differs only in case', () => {
    const result = scoreCall(transfer, [
      {
        name: 'execute_transfer',
        arguments: JSON.stringify({
          recipient_id: 'USR-99281',
          amount: '250.00',
          memo: 'rent payment',
        }),
      },
    ]);
    expect(result).toMatchObject({
      is_correct: true,
      score: 1,
      mismatches: {},
      error_message: null,
      reasons: [],
    });
  });

  it('explains a wrong value by path, with strategy and reason', () => {
    const result = scoreCall(transfer, [
      {
        name: 'execute_transfer',
        arguments: { recipient_id: 'USR-99281', amount: 205, memo: 'Rent Payment' },
      },
    ]);
    expect(result.is_correct).toBe(false);
    expect(result.score).toBeCloseTo(2 / 3, 9);
    expect(result.mismatches).toEqual({
      amount: { expected: 250, actual: 205, reason: 'value_mismatch', strategy: 'exact', score: 0 },
    });
    expect(result.reasons).toEqual(['value_mismatch']);
  });

  it('accepts the classic fuzzy rule from the issue', () => {
    const testCase: TestCase = {
      expected_tool: 'execute_transfer',
      arguments: {
        amount: 150.0,
        recipient_name: 'John Doe',
        account_type: 'savings',
        memo: 'rent',
      },
      rules: {
        amount: { matching_strategy: 'exact' },
        recipient_name: { matching_strategy: 'fuzzy', threshold: 0.85 },
        memo: { matching_strategy: 'ignore_case' },
      },
    };
    const close = scoreCall(testCase, [
      {
        name: 'execute_transfer',
        arguments: {
          amount: 150,
          recipient_name: 'Jon Doe',
          account_type: 'savings',
          memo: 'RENT',
        },
      },
    ]);
    expect(close.is_correct).toBe(true);
    const far = scoreCall(testCase, [
      {
        name: 'execute_transfer',
        arguments: {
          amount: 150,
          recipient_name: 'Jane Smith',
          account_type: 'savings',
          memo: 'rent',
        },
      },
    ]);
    expect(far.mismatches['recipient_name']).toMatchObject({
      reason: 'value_mismatch',
      strategy: 'fuzzy',
    });
    expect(far.mismatches['recipient_name']?.detail).toMatch(/^similarity 0\.\d+$/);
  });
});

describe('scoreCall: failure paths', () => {
  it('an ignore rule allows an argument the expected arguments leave out', () => {
    const testCase: TestCase = {
      expected_tool: 't',
      arguments: { a: 1 },
      rules: { note: { matching_strategy: 'ignore' } },
    };
    expect(
      scoreCall(testCase, [{ name: 't', arguments: { a: 1, note: 'anything' } }]),
    ).toMatchObject({ is_correct: true, mismatches: {} });
    expect(scoreCall(testCase, [{ name: 't', arguments: { a: 1, other: 'x' } }]).reasons).toEqual([
      'unexpected_argument',
    ]);
  });

  it('a negative case (expected_tool: null) passes only when no tool is called', () => {
    expect(scoreCall({ test_id: 'N-1', expected_tool: null }, [])).toMatchObject({
      is_correct: true,
      score: 1,
    });
    expect(
      scoreCall({ test_id: 'N-1', expected_tool: null }, [
        { name: 'execute_transfer', arguments: '{}' },
      ]),
    ).toMatchObject({ is_correct: false, score: 0, reasons: ['extra_call'] });
  });

  it('no call → missing_tool_call', () => {
    expect(scoreCall(transfer, [])).toMatchObject({
      is_correct: false,
      score: 0,
      reasons: ['missing_tool_call'],
    });
  });

  it('wrong tool → wrong_tool, unless an alternative matches', () => {
    expect(scoreCall(transfer, [{ name: 'get_balance', arguments: {} }])).toMatchObject({
      score: 0,
      reasons: ['wrong_tool'],
    });
    const withAlternative: TestCase = {
      ...transfer,
      alternatives: [
        { tool: 'schedule_transfer', arguments: { recipient_id: 'USR-99281', amount: 250 } },
      ],
    };
    const result = scoreCall(withAlternative, [
      { name: 'schedule_transfer', arguments: { recipient_id: 'USR-99281', amount: 250 } },
    ]);
    expect(result).toMatchObject({
      is_correct: true,
      details: { matched_tools: ['schedule_transfer'] },
    });
    expect(
      scoreCall({ ...transfer, expected_tool: ['execute_transfer', 'send_money'] }, [
        {
          name: 'send_money',
          arguments: { recipient_id: 'USR-99281', amount: 250, memo: 'rent payment' },
        },
      ]).is_correct,
    ).toBe(true);
  });

  it('unparseable arguments → invalid_json', () => {
    expect(
      scoreCall(transfer, [{ name: 'execute_transfer', arguments: '{"amount": 250,' }]),
    ).toMatchObject({ score: 0, reasons: ['invalid_json'] });
  });

  it('schema violation → 0 before any value is compared, with the path', () => {
    const schemas = {
      execute_transfer: {
        type: 'object',
        properties: {
          recipient_id: { type: 'string', pattern: '^USR-\\d+$' },
          amount: { type: 'number', minimum: 0.01 },
          memo: { type: 'string' },
        },
        required: ['recipient_id', 'amount'],
      },
    } as const;
    const result = scoreCall(
      transfer,
      [
        {
          name: 'execute_transfer',
          arguments: { recipient_id: 'USR-99281', amount: -5, memo: 'Rent Payment' },
        },
      ],
      { schemas: schemas as never },
    );
    expect(result).toMatchObject({ score: 0, reasons: ['schema_violation'] });
    expect(result.error_message).toContain('amount: must be >= 0.01');
  });

  it('an argument nobody asked for fails the call by default; penalize or ignore on request', () => {
    const call = [
      {
        name: 'execute_transfer',
        arguments: { recipient_id: 'USR-99281', amount: 250, memo: 'Rent Payment', force: true },
      },
    ];
    expect(scoreCall(transfer, call)).toMatchObject({
      is_correct: false,
      score: 0,
      reasons: ['unexpected_argument'],
    });
    expect(scoreCall({ ...transfer, extra_arguments: 'penalize' }, call).score).toBeCloseTo(
      3 / 4,
      9,
    );
    expect(scoreCall({ ...transfer, extra_arguments: 'ignore' }, call).is_correct).toBe(true);
  });

  it('a critical mismatch zeroes the call', () => {
    const testCase: TestCase = {
      ...transfer,
      rules: { ...transfer.rules, amount: { critical: true } },
    };
    expect(
      scoreCall(testCase, [
        {
          name: 'execute_transfer',
          arguments: { recipient_id: 'USR-99281', amount: 25, memo: 'Rent Payment' },
        },
      ]),
    ).toMatchObject({
      score: 0,
      is_correct: false,
      reasons: ['critical_mismatch', 'value_mismatch'],
    });
  });

  it('extra calls are penalised by default, ignored under best, and counted', () => {
    const good = {
      name: 'execute_transfer',
      arguments: { recipient_id: 'USR-99281', amount: 250, memo: 'Rent Payment' },
    };
    const twice = scoreCall(transfer, [good, good]);
    expect(twice).toMatchObject({
      score: 0.5,
      is_correct: false,
      reasons: ['extra_call'],
      details: { extra_calls: 1 },
    });
    expect(
      scoreCall({ ...transfer, multiple_calls: 'best' }, [{ name: 'noop', arguments: {} }, good]),
    ).toMatchObject({ score: 1, is_correct: true, details: { assignment: [1] } });
    expect(
      scoreCall({ ...transfer, multiple_calls: 'first' }, [{ name: 'noop', arguments: {} }, good])
        .reasons,
    ).toEqual(['wrong_tool']);
  });
});

describe('scoreCall: arguments', () => {
  const one = (testCase: TestCase, args: Record<string, JsonValue>) =>
    scoreCall({ expected_tool: 't', ...testCase }, [{ name: 't', arguments: args }]);

  it('weights arguments', () => {
    expect(
      one({ arguments: { a: 1, b: 2 }, rules: { a: { weight: 3 } } }, { a: 1, b: 3 }).score,
    ).toBeCloseTo(0.75, 9);
  });

  it('any_of with "may be omitted" and "must be omitted" markers, never confusing empty with omitted', () => {
    const testCase: TestCase = {
      arguments: { city: 'Paris' },
      rules: { unit: { any_of: ['celsius', omitted] }, debug: { any_of: [omitted] } },
    };
    expect(one(testCase, { city: 'Paris' }).is_correct).toBe(true);
    expect(one(testCase, { city: 'Paris', unit: 'celsius' }).is_correct).toBe(true);
    expect(one(testCase, { city: 'Paris', unit: 'kelvin' }).mismatches['unit']?.reason).toBe(
      'value_mismatch',
    );
    expect(one(testCase, { city: 'Paris', debug: false }).mismatches['debug']?.reason).toBe(
      'must_be_omitted',
    );
    expect(one({ arguments: { note: '' } }, {}).mismatches['note']?.reason).toBe(
      'missing_argument',
    );
    expect(one({ arguments: { tags: [] } }, { tags: [] }).is_correct).toBe(true);
  });

  it("coerces the actual value to each acceptable value's type, without a schema", () => {
    const testCase: TestCase = {
      arguments: {},
      rules: {
        limit: { any_of: [5, 10, omitted] },
        at: { any_of: ['2026-03-30T15:00:00Z', omitted] },
      },
    };
    expect(one(testCase, { limit: '10' }).is_correct).toBe(true);
    expect(one(testCase, { limit: '11' }).mismatches['limit']?.reason).toBe('value_mismatch');
    expect(one(testCase, { limit: true }).is_correct).toBe(false);
    expect(one(testCase, { at: '2026-03-30 17:00:00+02:00' }).is_correct).toBe(true);
  });

  it('applies schema defaults after the omitted check', () => {
    const schemas = {
      t: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', default: 'celsius' } },
      },
    };
    expect(
      scoreCall(
        { expected_tool: 't', arguments: { city: 'Paris', unit: 'celsius' } },
        [{ name: 't', arguments: { city: 'Paris' } }],
        { schemas },
      ).is_correct,
    ).toBe(true);
    expect(
      scoreCall(
        {
          expected_tool: 't',
          arguments: { city: 'Paris' },
          rules: { unit: { any_of: [omitted] } },
        },
        [{ name: 't', arguments: { city: 'Paris', unit: 'celsius' } }],
        { schemas },
      ).reasons,
    ).toEqual(['must_be_omitted']);
  });

  it('coerces by schema: numbers, integers, booleans, but never true for 1', () => {
    const schemas = {
      t: { type: 'object', properties: { n: { type: 'integer' }, flag: { type: 'boolean' } } },
    };
    expect(
      scoreCall(
        { expected_tool: 't', arguments: { n: 3, flag: true } },
        [{ name: 't', arguments: { n: '3', flag: 'yes' } }],
        { schemas },
      ).is_correct,
    ).toBe(true);
    expect(
      scoreCall(
        { expected_tool: 't', arguments: { n: 3, flag: true } },
        [{ name: 't', arguments: { n: 3.0, flag: 'off' } }],
        { schemas },
      ).mismatches['flag']?.reason,
    ).toBe('value_mismatch');
    expect(
      scoreCall(
        { expected_tool: 't', arguments: { n: 3, flag: true } },
        [{ name: 't', arguments: { n: 3, flag: 1 } }],
        { schemas },
      ).reasons,
    ).toEqual(['schema_violation']);
    expect(
      scoreCall(
        { expected_tool: 't', arguments: { n: 3, flag: true } },
        [{ name: 't', arguments: { n: '3.5', flag: true } }],
        { schemas },
      ).reasons,
    ).toEqual(['schema_violation']);
  });

  it('compares date-times as instants and dates by calendar day', () => {
    expect(
      one({ arguments: { at: '2026-03-30T15:00:00Z' } }, { at: '2026-03-30 15:00:00+00:00' })
        .is_correct,
    ).toBe(true);
    expect(
      one({ arguments: { at: '2026-03-30T15:00:00Z' } }, { at: '2026-03-30T17:00+02:00' })
        .is_correct,
    ).toBe(true);
    expect(
      one(
        {
          arguments: { at: '2026-03-30T15:00:00Z' },
          rules: { at: { matching_strategy: 'datetime', tolerance: 60 } },
        },
        { at: '2026-03-30T15:00:45Z' },
      ).is_correct,
    ).toBe(true);
    expect(
      one(
        {
          arguments: { at: '2026-03-30T15:00:00Z' },
          rules: { at: { matching_strategy: 'datetime', tolerance: 60 } },
        },
        { at: '2026-03-30T15:05:00Z' },
      ).mismatches['at']?.detail,
    ).toBe('300 s apart');
  });

  it.each([
    ['substring', { q: 'Paris' }, { q: 'weather in Paris today' }, {}],
    ['regex', { id: 'USR-\\d{5}' }, { id: 'USR-99281' }, {}],
    ['numeric', { amount: 100 }, { amount: 100.4 }, { tolerance: 0.5 }],
    ['numeric', { amount: 100 }, { amount: 101 }, { relative_tolerance: 0.02 }],
    [
      'fuzzy',
      { name: 'Jonathan' },
      { name: 'Jonathon' },
      { algorithm: 'jaro_winkler', threshold: 0.9 },
    ],
    [
      'loose_string',
      { sql: "SELECT * FROM users WHERE name = 'x'" },
      { sql: 'select*from users where name="x"' },
      {},
    ],
    ['ignore', { trace: 'a' }, { trace: 'b' }, {}],
  ] as const)('%s matches', (strategy, expected, actual, extra) => {
    const key = Object.keys(expected)[0] as string;
    const result = one(
      { arguments: expected, rules: { [key]: { matching_strategy: strategy, ...extra } } },
      actual,
    );
    expect(result.mismatches).toEqual({});
    expect(result.is_correct).toBe(true);
  });

  it.each([
    ['substring', { q: 'Paris' }, { q: 'weather in Lyon' }, {}],
    ['regex', { id: 'USR-\\d{5}' }, { id: 'xUSR-99281' }, {}],
    ['numeric', { amount: 100 }, { amount: 101 }, { tolerance: 0.5 }],
    ['numeric', { amount: 100 }, { amount: 'one hundred' }, {}],
  ] as const)('%s rejects', (strategy, expected, actual, extra) => {
    const key = Object.keys(expected)[0] as string;
    expect(
      one(
        { arguments: expected, rules: { [key]: { matching_strategy: strategy, ...extra } } },
        actual,
      ).is_correct,
    ).toBe(false);
  });

  it('applies nested rules by path, in objects and in every array element', () => {
    const testCase: TestCase = {
      arguments: {
        address: { city: 'Zürich', zip: '8001' },
        items: [
          { sku: 'ab-1', qty: 2 },
          { sku: 'cd-2', qty: 1 },
        ],
      },
      rules: {
        'address.city': { matching_strategy: 'ignore_case' },
        'items[].sku': { matching_strategy: 'ignore_case' },
      },
    };
    expect(
      one(testCase, {
        address: { city: 'ZÜRICH', zip: '8001' },
        items: [
          { sku: 'AB-1', qty: 2 },
          { sku: 'CD-2', qty: 1 },
        ],
      }).is_correct,
    ).toBe(true);
    const wrong = one(testCase, {
      address: { city: 'Zürich', zip: '8002' },
      items: [
        { sku: 'AB-1', qty: 3 },
        { sku: 'CD-2', qty: 1 },
      ],
    });
    expect(Object.keys(wrong.mismatches)).toEqual(['address.zip', 'items[0].qty']);
  });

  it('compares arrays in order, or as multisets when unordered', () => {
    expect(one({ arguments: { tags: ['a', 'b'] } }, { tags: ['b', 'a'] }).is_correct).toBe(false);
    expect(
      one(
        { arguments: { tags: ['a', 'b'] }, rules: { tags: { unordered: true } } },
        { tags: ['b', 'a'] },
      ).is_correct,
    ).toBe(true);
    expect(
      one(
        { arguments: { tags: ['a', 'b'] }, rules: { tags: { unordered: true } } },
        { tags: ['b', 'a', 'c'] },
      ).mismatches['tags']?.detail,
    ).toBe('2 element(s) expected, 3 given');
  });

  it('resolves date placeholders against the injected clock', () => {
    const now = new Date('2026-11-30T10:00:00Z');
    const testCase: TestCase = {
      expected_tool: 't',
      arguments: { from: '{{TODAY-7d}}', to: '{{TOMORROW}}', at: '{{NOW+2h}}' },
    };
    expect(
      scoreCall(
        testCase,
        [
          {
            name: 't',
            arguments: { from: '2026-11-23', to: '2026-12-01', at: '2026-11-30T12:00:00Z' },
          },
        ],
        { now },
      ).is_correct,
    ).toBe(true);
  });
});

describe('scoreCall: parallel calls', () => {
  const parallel: TestCase = {
    expected_calls: [
      { expected_tool: 'get_weather', arguments: { city: 'Paris' } },
      { expected_tool: 'get_weather', arguments: { city: 'Tokyo' } },
      { expected_tool: 'send_email', arguments: { to: 'ops@example.com' } },
    ],
  };
  const calls = [
    { name: 'send_email', arguments: { to: 'ops@example.com' } },
    { name: 'get_weather', arguments: { city: 'Tokyo' } },
    { name: 'get_weather', arguments: { city: 'Paris' } },
  ];

  it('pairs expected and actual calls one-to-one by the best assignment', () => {
    expect(scoreCall(parallel, calls)).toMatchObject({
      is_correct: true,
      score: 1,
      details: { assignment: [2, 1, 0] },
    });
    const partial = scoreCall(parallel, [
      calls[0] as never,
      { name: 'get_weather', arguments: { city: 'Lyon' } },
    ]);
    expect(partial.score).toBeCloseTo(1 / 3, 9);
    expect(partial.reasons).toEqual(['missing_tool_call', 'value_mismatch']);
  });

  it('never depends on the order calls arrive in (property)', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(calls, { minLength: 0, maxLength: 3 }),
        fc.array(
          fc.record({
            name: fc.constantFrom('get_weather', 'send_email'),
            arguments: fc.record({ city: fc.constantFrom('Paris', 'Tokyo', 'Lyon') }),
          }),
          { maxLength: 2 },
        ),
        (subset, extras) => {
          const actual = [...subset, ...extras];
          const reference = scoreCall(parallel, actual);
          const reversed = scoreCall(parallel, [...actual].reverse());
          expect(reversed.score).toBe(reference.score);
          expect(reversed.is_correct).toBe(reference.is_correct);
        },
      ),
    );
  });
});

describe('properties', () => {
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'number' },
      b: { type: 'boolean' },
      s: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      nested: { type: 'object', properties: { x: { type: 'integer' } } },
    },
  } as const;

  it('normalisation is idempotent', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
          b: fc.oneof(fc.boolean(), fc.constantFrom('yes', 'off', 'maybe')),
          s: fc.string(),
          at: fc.constantFrom('2026-03-30 15:00:00+02:00', 'not a date'),
          nested: fc.record({ x: fc.oneof(fc.integer(), fc.string()) }),
        }),
        (value) => {
          const once = normaliseBySchema(value as JsonValue, schema as never, true);
          expect(normaliseBySchema(once, schema as never, true)).toEqual(once);
        },
      ),
    );
  });

  it('key order never changes a score, and exact matching is reflexive', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 6,
        }),
        (args) => {
          const testCase: TestCase = {
            expected_tool: 't',
            arguments: args as Record<string, JsonValue>,
          };
          const reversed = Object.fromEntries(Object.entries(args).reverse()) as Record<
            string,
            JsonValue
          >;
          const same = scoreCall(testCase, [
            { name: 't', arguments: args as Record<string, JsonValue> },
          ]);
          expect(same.mismatches).toEqual({});
          expect(same.score).toBe(1);
          expect(JSON.stringify(scoreCall(testCase, [{ name: 't', arguments: reversed }]))).toBe(
            JSON.stringify(same),
          );
        },
      ),
    );
  });
});

describe('issue 31: a refund with an extra argument was reported as "a different tool was called" when a lookup came first', () => {
  it('explains the failing call of the expected tool, not the lookup before it (direct mode scoring)', () => {
    const refund: TestCase = { expected_tool: 'issue_refund', arguments: { order_id: 'A-17' } };
    const calls = [
      { name: 'get_order', arguments: '{"order_id":"A-17"}' },
      { name: 'issue_refund', arguments: '{"order_id":"A-17","force":true}' },
    ];
    for (const scored of [scoreCall(refund, calls), scoreCall(refund, calls)]) {
      expect(scored.reasons).toEqual(['extra_call', 'unexpected_argument']);
      expect(scored.reasons).not.toContain('wrong_tool');
      expect(scored.error_message).toBe('an argument that was not expected was given');
      expect(scored.details.assignment).toEqual([1]);
      expect(Object.keys(scored.mismatches)).toEqual(['force']);
    }
    // Only when no call is of the expected tool is it a different tool.
    expect(scoreCall(refund, calls.slice(0, 1)).reasons).toEqual(['wrong_tool']);
  });
});
