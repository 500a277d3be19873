import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SuiteRunResult } from '../report/run-result.js';
import type { CaseResult } from '../scoring/case-result.js';
import type { Gates, Suite } from '../scoring/suite-types.js';
import { caseResult } from '../../test/support/case-result.js';
import { evaluateGates, summariseConfiguration } from './gates.js';
import { mergeShards, type NamedBlob } from './merge-shards.js';
import { shardBlobVersion } from './shard-blob.js';
import { parseShard, shardOf, shardSuite } from './shard-cases.js';

const result = (
  run: string,
  test_id: string,
  index: number,
  status: CaseResult['status'],
  extra: Partial<CaseResult> = {},
): CaseResult =>
  caseResult(test_id, { run, index, status, score: status === 'pass' ? 1 : 0, ...extra });

/** The run an unsharded `calltape test` produces from these case results. */
function unsharded(
  cases: readonly CaseResult[],
  runs: readonly string[],
  gates: Gates,
): SuiteRunResult {
  const evaluated = evaluateGates(gates, cases, runs, undefined);
  return {
    suite: 'bank',
    file: '/ci/suite.yaml',
    mode: 'replay',
    drive: 'agent',
    cassette: '/ci/recordings/bank.sqlite',
    started_at: '2026-12-01T00:00:00.000Z',
    duration_ms: 100,
    runs: runs.map((run) => summariseConfiguration(cases, run, 'm', null)),
    cases,
    gates: evaluated,
    passed: evaluated.every((gate) => gate.pass) && cases.every((item) => item.status !== 'error'),
  };
}

/** What `calltape test --shard i/count --blob` writes for each shard of that run. */
function blobsOf(
  whole: SuiteRunResult,
  order: readonly string[],
  gates: Gates,
  count: number,
  sha = 'a'.repeat(64),
): NamedBlob[] {
  return Array.from({ length: count }, (_, at) => {
    const index = at + 1;
    const own = order.filter((testId) => shardOf('suite.yaml', testId, count) === index);
    const cases = whole.cases
      .filter((item) => own.includes(item.test_id))
      .map((item) => ({ ...item, index: own.indexOf(item.test_id) }));
    return {
      file: `blob-${index}.json`,
      blob: {
        calltape_shard_blob: shardBlobVersion,
        suite_sha256: sha,
        suite_name: 'suite.yaml',
        filter: null,
        shard: { index, count },
        order,
        gates,
        result: {
          ...whole,
          runs: whole.runs.map((run) => summariseConfiguration(cases, run.run, run.model, null)),
          cases,
          gates: [],
          passed: true,
        },
      },
    };
  });
}

const ids = ['TC-001', 'TC-002', 'TC-003', 'TC-004', 'TC-005'];
const gates: Gates = { pass_rate: 0.8, per_tool: { execute_transfer: 1 } };
const whole = unsharded(
  ids.map((id, index) =>
    result('default', id, index, id === 'TC-004' ? 'fail' : 'pass', {
      tools: index < 2 ? ['execute_transfer'] : [],
    }),
  ),
  ['default'],
  gates,
);

describe('parseShard', () => {
  it('reads i/n and refuses what is not a shard of a split', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/3', '4/3', '1/0', '2', 'a/b', '1/3/4'])
      expect(() => parseShard(bad), bad).toThrow('--shard: give i/n');
  });
});

describe('shardOf', () => {
  it('is the same on every runner: a pinned case stays in its pinned shard', () => {
    expect([
      shardOf('suite.yaml', 'TC-001', 3),
      shardOf('suite.yaml', 'TC-002', 3),
      shardOf('suite.yaml', 'TC-003', 3),
    ]).toEqual([3, 1, 1]);
  });

  it('puts every case of a suite in exactly one shard, keeping suite order, and adding a case moves no other', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.string({ minLength: 1 }),
        (testIds, count, added) => {
          const suite = {
            file: '/a/suite.yaml',
            cases: testIds.map((test_id) => ({ test_id })),
          } as unknown as Suite;
          const parts = Array.from({ length: count }, (_, at) =>
            shardSuite(suite, 'suite.yaml', { index: at + 1, count }).cases.map(
              (testCase) => testCase.test_id,
            ),
          );
          expect(parts.flat().sort()).toEqual([...testIds].sort());
          for (const part of parts) expect(part).toEqual(testIds.filter((id) => part.includes(id)));
          const grown = { ...suite, cases: [...suite.cases, { test_id: `${added}+new` }] } as Suite;
          const shardIn = (split: Suite, id: string): number =>
            1 +
            Array.from({ length: count }, (_, at) =>
              shardSuite(split, 'suite.yaml', { index: at + 1, count }),
            ).findIndex((part) => part.cases.some((testCase) => testCase.test_id === id));
          for (const id of testIds) expect(shardIn(grown, id)).toBe(shardIn(suite, id));
        },
      ),
    );
  });
});

describe('mergeShards', () => {
  it("gives the unsharded run: cases in suite order, summaries, and the gates evaluated on every shard's cases", () => {
    const merged = mergeShards(blobsOf(whole, ids, gates, 3), undefined);
    expect(merged.cases).toEqual(whole.cases);
    expect(merged.runs).toEqual(whole.runs);
    expect(merged.gates).toEqual(whole.gates);
    expect(merged.gates.find((gate) => gate.gate === 'per_tool')?.message).toContain(
      '2/2 cases passed',
    );
  });

  it('merge of the shards equals the unsharded run, for any split and any results', () => {
    const outcome = fc.constantFrom<CaseResult['status']>('pass', 'fail', 'error');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 20 }),
        fc.array(outcome, { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (order, statuses, count, twoRuns) => {
          const runs = twoRuns ? ['a', 'b'] : ['default'];
          const cases = runs.flatMap((run, r) =>
            order.map((id, index) =>
              result(run, id, index, statuses[(r * order.length + index) % 40] ?? 'pass', {
                tags: index % 2 ? ['odd'] : ['even'],
                tools: [index % 3 ? 'x' : 'y'],
              }),
            ),
          );
          const declared: Gates = {
            pass_rate: 0.5,
            mean_score: 0.5,
            per_tag: { odd: 1 },
            per_tool: { y: 0.5 },
          };
          const reference = unsharded(cases, runs, declared);
          const merged = mergeShards(blobsOf(reference, order, declared, count), undefined);
          expect({
            cases: merged.cases,
            runs: merged.runs,
            gates: merged.gates,
            passed: merged.passed,
          }).toEqual({
            cases: reference.cases,
            runs: reference.runs,
            gates: reference.gates,
            passed: reference.passed,
          });
        },
      ),
    );
  });

  it('refuses a missing shard, naming how many are present', () => {
    const [one, , three] = blobsOf(whole, ids, gates, 3) as [NamedBlob, NamedBlob, NamedBlob];
    expect(() => mergeShards([one, three], undefined)).toThrow(
      '2/3 shards present: missing shard 2/3',
    );
  });

  it('refuses a shard given twice and a blob of another suite version, naming the file', () => {
    const [one, two, three] = blobsOf(whole, ids, gates, 3) as [NamedBlob, NamedBlob, NamedBlob];
    expect(() => mergeShards([one, two, { ...two, file: 'copy.json' }, three], undefined)).toThrow(
      'copy.json: shard 2/3 was given twice (also blob-2.json)',
    );
    const [, foreign] = blobsOf(whole, ids, gates, 3, 'b'.repeat(64));
    expect(() =>
      mergeShards([one, { ...(foreign as NamedBlob), file: 'old.json' }, three], undefined),
    ).toThrow('old.json: from another version of the suite than blob-1.json');
    expect(() =>
      mergeShards(
        [one, two, { ...three, blob: { ...three.blob, shard: { index: 3, count: 4 } } }],
        undefined,
      ),
    ).toThrow('blob-3.json: shard 3/4 of a split into 4');
  });
});
