import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { scoreCall } from './score-call.js';
import { scoreCallReference } from './score-call-reference.js';
import {
  omitted,
  reasonCodes,
  type ActualCall,
  type ArgumentRule,
  type ExpectedCall,
  type TestCase,
} from './types.js';

const now = new Date('2026-11-30T12:00:00Z');
const leaf = fc.constantFrom<JsonValue>(
  250,
  '250',
  ' 250.00 ',
  3,
  '3',
  true,
  'yes',
  false,
  null,
  'Paris',
  ' paris ',
  'PARIS!',
  'Zürich',
  'Zu\u0308rich',
  '2026-03-30T15:00:00Z',
  '2026-03-30 17:00+02:00',
  '{{TODAY}}',
  '{{NOW-2h}}',
  '2026-11-30',
  'a-b_c',
  '',
);
const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('city', 'zip', 'sku'), tie('value'), { maxKeys: 2 }),
  ),
})).value;
const names = ['amount', 'city', 'items', 'when', 'flag', 'note'] as const;
const args = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 4 });
const rule: fc.Arbitrary<ArgumentRule> = fc.oneof(
  fc.constantFrom<ArgumentRule>(
    { matching_strategy: 'ignore_case' },
    { matching_strategy: 'loose_string' },
    { matching_strategy: 'substring' },
    { matching_strategy: 'fuzzy', threshold: 0.7 },
    { matching_strategy: 'fuzzy', algorithm: 'jaro_winkler' },
    { matching_strategy: 'numeric', tolerance: 1 },
    { matching_strategy: 'datetime', tolerance: 3600 },
    { matching_strategy: 'ignore' },
    { unordered: true },
    { critical: true },
    { weight: 3 },
    // A weight of 0 lets a call score 1 with a mismatch: the clean-match shortcuts must not take it for a match.
    { weight: 0 },
    { matching_strategy: 'exact' },
    { matching_strategy: 'numeric', relative_tolerance: 0.1 },
    { matching_strategy: 'semantic', threshold: 0.8 },
    { normalise: ['loose_string'] },
    { normalise: ['phone'], country: 'GB' },
  ),
  fc.constantFrom<ArgumentRule>(
    { matching_strategy: 'regex', pattern: '[A-Za-z ]+', flags: 'i' },
    { matching_strategy: 'numeric', min: 0, max: 260 },
    { any_of: ['Paris', 250, omitted] },
    { any_of: [omitted] },
    { any_of: [['a', 'b'], 3], matching_strategy: 'loose_string' },
    { any_of: ['paris', ' Zürich ', 'a-b_c', omitted], matching_strategy: 'loose_string' },
    { any_of: ['250', 3, true, null, '2026-11-30'] },
    { any_of: [{ city: 'Paris' }, 'Paris'], critical: true },
  ),
);
/** Rules on present arguments (any rule) and on absent ones (only rules that stand alone), plus globs. */
const rules = (expected: { [name: string]: JsonValue }) =>
  fc
    .dictionary(fc.constantFrom(...names, 'items[].sku', 'items[]', 'c*', '*'), rule, {
      maxKeys: 3,
    })
    .map((drawn) => {
      const kept: Record<string, ArgumentRule> = {};
      for (const [path, candidate] of Object.entries(drawn)) {
        const present = path.includes('*') || Object.hasOwn(expected, path);
        const alone =
          candidate.any_of !== undefined ||
          candidate.pattern !== undefined ||
          candidate.min !== undefined ||
          candidate.matching_strategy === 'ignore';
        const items = expected['items'];
        // A rule on every element needs an element to compare with (or stands alone).
        if (path === 'items[]') {
          if (Array.isArray(items) && (items.length > 0 || alone)) kept[path] = candidate;
          continue;
        }
        if (
          path === 'items[].sku'
            ? Array.isArray(expected['items']) &&
              expected['items'].some(
                (item) =>
                  typeof item === 'object' &&
                  item !== null &&
                  !Array.isArray(item) &&
                  Object.hasOwn(item, 'sku'),
              )
            : present || alone
        )
          kept[path] = candidate;
      }
      return kept;
    });
const expectedCall = fc
  .tuple(fc.constantFrom<ExpectedCall['expected_tool']>('t', 'u', ['t', 'u'], 'get_*'), args)
  .chain(([tool, expected]) =>
    rules(expected).map((drawn): ExpectedCall => ({
      expected_tool: tool,
      arguments: expected,
      ...(Object.keys(drawn).length > 0 ? { rules: drawn } : {}),
    })),
  );
/** Tool schemas the calls are validated against: loose, strict (required, enums, no extras), with defaults and dates. */
const schemas: readonly JsonSchema[] = [
  {
    type: 'object',
    properties: {
      amount: { type: 'number' },
      city: { type: 'string' },
      flag: { type: 'boolean', default: false },
      when: { type: 'string', format: 'date-time' },
      items: { type: 'array', items: { type: 'object' } },
    },
  },
  {
    type: 'object',
    properties: {
      amount: { type: 'integer', description: 'whole units' },
      city: { type: 'string', enum: ['Paris', 'paris', 'Zürich', 'PARIS!'] },
      note: { type: ['string', 'null'] },
      flag: { type: 'boolean', default: 'yes' },
    },
    required: ['city'],
    additionalProperties: false,
  },
  {
    type: 'object',
    properties: { when: { type: 'string', format: 'date' }, amount: { enum: [250, '250', 3] } },
    required: ['amount'],
    additionalProperties: { type: 'string' },
  },
  { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['zip'] },
];
const vectors: { readonly [text: string]: readonly number[] } = {
  Paris: [1, 0],
  paris: [0.9, 0.1],
  'PARIS!': [0.5, 0.5],
  '250': [0, 1],
};
const embeddings = (text: string): readonly number[] | undefined =>
  Object.hasOwn(vectors, text) ? vectors[text] : undefined;
const testCase = fc.record({
  calls: fc.array(expectedCall, { minLength: 1, maxLength: 3 }),
  extra: fc.constantFrom<TestCase['extra_arguments']>(
    undefined,
    'schema',
    'ignore',
    'penalize',
    'fail',
  ),
  multiple: fc.constantFrom<TestCase['multiple_calls']>(
    undefined,
    'first',
    'best',
    'all',
    'penalize',
  ),
  threshold: fc.constantFrom(undefined, 0.5),
  alternative: fc.option(args, { nil: undefined }),
});
const tools = fc.constantFrom('t', 'u', 'get_weather', 'v');
const randomCall = fc.record({
  name: tools,
  arguments: fc.oneof(
    args,
    args.map((value) => JSON.stringify(value)),
    fc.constantFrom('{not json', '[1]', ''),
  ),
});
/** Mostly calls made from the expectation itself (so they match, nearly match or differ in one argument), some random ones. */
const actualCalls = (expected: readonly ExpectedCall[]) =>
  fc.array(
    fc.oneof(
      randomCall,
      fc
        .tuple(
          fc.nat(expected.length - 1),
          tools,
          fc.constantFrom('same', 'text', 'drop', 'add'),
          value,
        )
        .map(([index, name, change, extra]): ActualCall => {
          const base: { [name: string]: JsonValue } = { ...(expected[index]?.arguments ?? {}) };
          const [key] = Object.keys(base);
          if (change === 'text') return { name, arguments: JSON.stringify(base) };
          if (change === 'drop' && key !== undefined) delete base[key];
          if (change === 'add') base['note'] = extra;
          return { name, arguments: base };
        }),
    ),
    { maxLength: 4 },
  );

function build(drawn: {
  calls: ExpectedCall[];
  extra: TestCase['extra_arguments'];
  multiple: TestCase['multiple_calls'];
  threshold: number | undefined;
  alternative: { [name: string]: JsonValue } | undefined;
}): TestCase {
  const [first] = drawn.calls;
  const options = {
    ...(drawn.extra ? { extra_arguments: drawn.extra } : {}),
    ...(drawn.multiple ? { multiple_calls: drawn.multiple } : {}),
    ...(drawn.threshold !== undefined ? { pass_threshold: drawn.threshold } : {}),
  };
  if (drawn.calls.length === 1 && first)
    return {
      ...first,
      ...(drawn.alternative ? { alternatives: [{ tool: 'v', arguments: drawn.alternative }] } : {}),
      ...options,
    };
  return { expected_calls: drawn.calls, ...options };
}

describe('the compiled scorer', () => {
  it('gives byte-identical results to the reference scorer on generated cases, first seen, compiled and reused (property)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        testCase.chain((drawn) => fc.tuple(fc.constant(build(drawn)), actualCalls(drawn.calls))),
        fc.option(fc.constantFrom(...schemas), { nil: undefined }),
        ([built, calls], schema) => {
          const options = {
            now,
            embeddings,
            ...(schema ? { schemas: { t: schema, get_weather: schema } } : {}),
          };
          const result = scoreCallReference(built, calls, options);
          const reference = JSON.stringify(result);
          seen.add(result.is_correct ? 'pass' : 'fail');
          for (const reason of result.reasons) seen.add(reason);
          // The first scoring is the reference scorer's (first-sight.ts), the second compiles the case, the third reuses it.
          for (let sight = 0; sight < 3; sight++)
            expect(JSON.stringify(scoreCall(built, calls, options))).toBe(reference);
        },
      ),
      { numRuns: 1500 },
    );
    // The generated calls reach passing and failing verdicts of every kind, the explaining paths included.
    const rare = ['type_mismatch', 'embedding_unavailable'];
    for (const kind of ['pass', 'fail', ...reasonCodes.filter((code) => !rare.includes(code))])
      expect(seen).toContain(kind);
  });

  it('scores a call right when a named normaliser scores another call while the walk is under way', () => {
    // The walk reads the sent arguments into slots by member; a nested scoring must not overwrite the outer call's.
    const schema: JsonSchema = {
      type: 'object',
      properties: { p: { type: 'number' }, q: { type: 'number' }, r: { type: 'number' } },
    };
    const inner: TestCase = { expected_tool: 'inner', arguments: { p: 1, q: 2, r: 3 } };
    const options = {
      now,
      schemas: { inner: schema },
      normalisers: {
        nested: (value: JsonValue): JsonValue =>
          scoreCall(inner, [{ name: 'inner', arguments: { r: 3, q: 2, p: 9 } }], {
            now,
            schemas: { inner: schema },
          }).is_correct
            ? 'never'
            : value,
      },
    };
    const outer: TestCase = {
      expected_tool: 'outer',
      arguments: { a: 'x', b: 'y', c: 'z' },
      rules: { a: { normalise: ['nested'] } },
    };
    // Past first sight (first-sight.ts) for both cases, so the scorings below walk compiled cases.
    for (const testCase of [outer, inner]) scoreCall(testCase, [], options);
    for (const sent of [
      { a: 'x', b: 'y', c: 'z' },
      { c: 'z', b: 'Y', a: 'x' },
    ]) {
      const calls = [{ name: 'outer', arguments: sent }];
      const result = scoreCall(outer, calls, options);
      expect(JSON.stringify(result)).toBe(
        JSON.stringify(scoreCallReference(outer, calls, options)),
      );
      expect(result.is_correct).toBe(sent.b === 'y');
    }
  });

  it('gives byte-identical results to the reference scorer on the BFCL-shaped workload', () => {
    // Every fourth input: each brings its own schemas, and compiling thousands of validators is what makes the whole file slow.
    const lines = gunzipSync(
      readFileSync(join(packageRoot, 'bench/workloads/scoring-workload.jsonl.gz')),
    )
      .toString('utf8')
      .trim()
      .split('\n')
      .filter((_, index) => index % 4 === 0);
    let differing = 0;
    for (const line of lines) {
      const input = JSON.parse(line) as {
        test_case: TestCase;
        actual_calls: ActualCall[];
        schemas: { [tool: string]: JsonSchema };
      };
      const options = { schemas: input.schemas, now };
      const reference = JSON.stringify(
        scoreCallReference(input.test_case, input.actual_calls, options),
      );
      // Seen once (the reference scorer's turn), then compiled: the compiled scoring is the one compared.
      scoreCall(input.test_case, input.actual_calls, options);
      if (JSON.stringify(scoreCall(input.test_case, input.actual_calls, options)) !== reference)
        differing++;
    }
    expect(lines.length).toBe(2111);
    expect(differing).toBe(0);
  });
});
