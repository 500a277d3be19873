import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseResult } from '../../test/support/case-result.js';
import { behaviourDiff, casePassRate } from './behaviour-diff.js';

const weather = (args: object) => ({
  name: 'get_weather',
  arguments: JSON.stringify(args),
  mocked: false,
  round: 1,
});

describe('behaviourDiff', () => {
  it('names a verdict flip as a regression or a fix, with why it fails now', () => {
    const diff = behaviourDiff(
      [caseResult('a'), caseResult('b', { status: 'fail', score: 0 })],
      [
        caseResult('a', { status: 'fail', score: 0, problems: ['unit: expected "c", got "f"'] }),
        caseResult('b'),
      ],
    );
    expect(diff.cases.map((item) => [item.test_id, item.verdict])).toEqual([
      ['a', { before: 'pass', after: 'fail', kind: 'regression' }],
      ['b', { before: 'fail', after: 'pass', kind: 'fix' }],
    ]);
    expect(diff.cases[0]?.first_difference).toBe(
      'verdict pass → fail: unit: expected "c", got "f"',
    );
    expect(diff.pass_rates).toEqual([{ run: 'default', before: 0.5, after: 0.5 }]);
  });

  it('lists calls added and removed, and arguments changed by path, old → new', () => {
    const diff = behaviourDiff(
      [
        caseResult('a', {
          calls: [
            weather({ city: 'Paris', options: { unit: 'celsius' } }),
            weather({ city: 'Rome' }),
          ],
        }),
      ],
      [
        caseResult('a', {
          calls: [
            weather({ city: 'Paris', options: { unit: 'fahrenheit', days: 2 } }),
            { name: 'book_flight', arguments: '{}', mocked: true, round: 2 },
          ],
        }),
      ],
    );
    const [change] = diff.cases;
    expect(change?.calls_added).toEqual(['book_flight']);
    expect(change?.calls_removed).toEqual(['get_weather']);
    expect(change?.arguments).toEqual([
      {
        tool: 'get_weather',
        occurrence: 0,
        path: 'options.unit',
        before: '"celsius"',
        after: '"fahrenheit"',
      },
      { tool: 'get_weather', occurrence: 0, path: 'options.days', before: null, after: '2' },
    ]);
    expect(change?.steps).toBeNull();
    expect(change?.first_difference).toBe('call removed: get_weather');
  });

  it('compares arguments that are not JSON as whole texts', () => {
    const diff = behaviourDiff(
      [caseResult('a', { calls: [{ name: 't', arguments: '{oops', mocked: false, round: 1 }] })],
      [caseResult('a', { calls: [{ name: 't', arguments: '{"x":1}', mocked: false, round: 1 }] })],
    );
    expect(diff.cases[0]?.arguments).toEqual([
      { tool: 't', occurrence: 0, path: '', before: '"{oops"', after: '"{\\"x\\":1}"' },
    ]);
    expect(diff.cases[0]?.first_difference).toBe('t arguments: "{oops" → "{\\"x\\":1}"');
  });

  it('reports steps and rounds that moved, and a per-case pass rate when the case has one', () => {
    const diff = behaviourDiff(
      [caseResult('a', { rounds: 2, calls: [weather({ city: 'x' })] })],
      [
        {
          ...caseResult('a', {
            rounds: 4,
            calls: [weather({ city: 'x' }), weather({ city: 'x' })],
          }),
          samples: { passed: 3, total: 5 },
        },
      ],
    );
    expect(diff.cases[0]).toMatchObject({
      steps: { before: 1, after: 2 },
      rounds: { before: 2, after: 4 },
      pass_rate: { before: 1, after: 0.6 },
      calls_added: ['get_weather'],
    });
  });

  it('matches cases by run configuration and test id, and lists those on one side only', () => {
    const diff = behaviourDiff(
      [caseResult('a', { run: 'small' }), caseResult('gone', { run: 'small' })],
      [caseResult('a', { run: 'small' }), caseResult('a', { run: 'large', status: 'fail' })],
    );
    expect(diff.cases).toEqual([]);
    expect(diff.unchanged).toBe(1);
    expect(diff.only_in_baseline).toEqual(['small/gone']);
    expect(diff.only_in_run).toEqual(['large/a']);
    // No baseline of "large": no pass rate to move.
    expect(diff.pass_rates).toEqual([{ run: 'small', before: 1, after: 1 }]);
  });

  it('reads a test id such as __proto__ as data', () => {
    const diff = behaviourDiff(
      [caseResult('__proto__')],
      [caseResult('__proto__', { status: 'fail' })],
    );
    expect(diff.cases[0]?.verdict?.kind).toBe('regression');
  });
});

describe('casePassRate', () => {
  it('is the samples share when present, else 1 for a pass and 0 otherwise', () => {
    expect(casePassRate({ status: 'fail', samples: { passed: 1, total: 4 } })).toBe(0.25);
    expect(casePassRate({ status: 'pass' })).toBe(1);
    expect(casePassRate({ status: 'error' })).toBe(0);
  });
});

describe('behaviourDiff properties', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const call = fc.record({
    name: fc.constantFrom('a', 'b', 'c'),
    arguments: fc.oneof(
      fc
        .dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 4 })
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 6 }),
    ),
    mocked: fc.boolean(),
    round: fc.nat(5),
  });
  const item = fc.record({
    test_id: fc.constantFrom('x', 'y', 'z', '__proto__', 'constructor'),
    run: fc.constantFrom('default', 'other'),
    status: fc.constantFrom(
      'pass' as const,
      'fail' as const,
      'error' as const,
      'unreliable' as const,
    ),
    rounds: fc.nat(6),
    calls: fc.array(call, { maxLength: 4 }),
  });
  const side = fc
    .uniqueArray(item, { selector: (value) => `${value.run}/${value.test_id}`, maxLength: 8 })
    .map((items) => items.map((value) => caseResult(value.test_id, value)));

  it('finds no change between a run and itself', () => {
    fc.assert(
      fc.property(side, (cases) => {
        const diff = behaviourDiff(cases, cases);
        expect(diff.cases).toEqual([]);
        expect(diff.unchanged).toBe(cases.length);
        expect(diff.only_in_baseline).toEqual([]);
        expect(diff.only_in_run).toEqual([]);
      }),
    );
  });

  it('is symmetric: swapping sides swaps added and removed calls, before and after', () => {
    fc.assert(
      fc.property(side, side, (left, right) => {
        const forward = behaviourDiff(left, right);
        const backward = behaviourDiff(right, left);
        expect(backward.cases.length).toBe(forward.cases.length);
        expect(backward.unchanged).toBe(forward.unchanged);
        for (const change of forward.cases) {
          const mirror = backward.cases.find(
            (other) => other.run === change.run && other.test_id === change.test_id,
          );
          expect(mirror?.calls_added.slice().sort()).toEqual(change.calls_removed.slice().sort());
          expect(mirror?.steps).toEqual(
            change.steps && { before: change.steps.after, after: change.steps.before },
          );
          expect(mirror?.arguments.length).toBe(change.arguments.length);
        }
      }),
    );
  });

  it('counts every compared case once, as changed or unchanged', () => {
    fc.assert(
      fc.property(side, side, (left, right) => {
        const diff = behaviourDiff(left, right);
        expect(diff.cases.length + diff.unchanged + diff.only_in_run.length).toBe(right.length);
        expect(diff.cases.length + diff.unchanged + diff.only_in_baseline.length).toBe(left.length);
        for (const change of diff.cases) expect(change.first_difference).not.toBe('');
      }),
    );
  });
});
