import { describe, expect, it } from 'vitest';
import type { Rating } from '../ratings/rating.js';
import { compareJudges } from './compare-judges.js';
import type { JudgeDefinition, JudgeOutcome, LlmJudgeDefinition } from './judge-definition.js';

const ratings: Rating[] = [
  { run: 'c#1', rating: 'pass', at: 'x' },
  { run: 'c#2', rating: 'fail', note: 'wrong account', at: 'x' },
  { run: 'c#3', rating: 'pass', at: 'x' },
  { run: 'c#4', rating: 'fail', at: 'x' },
];
const llm = (name: string, price?: { input: number; output: number }): LlmJudgeDefinition => ({
  kind: 'llm',
  name,
  model: 'm',
  provider: 'openai',
  prompt: { kind: 'rubric', rubric: 'r' },
  temperature: 0,
  samples: 1,
  aggregate: 'majority',
  passThreshold: 0.5,
  confirmOnFail: false,
  maxTokens: 512,
  price,
});
const verdicts = (
  list: readonly ('pass' | 'fail' | null)[],
  samples: readonly (readonly boolean[])[] = [],
): Map<string, JudgeOutcome> =>
  new Map(
    list.map((verdict, index) => [
      `c#${index + 1}`,
      {
        verdict,
        score: null,
        samples: samples[index] ?? (verdict === null ? [] : [verdict === 'pass']),
        reason: verdict === null ? null : `said ${verdict}`,
        error: verdict === null ? 'judge "x": no answer' : null,
      },
    ]),
  );
const usage = (input: number) => ({
  requests: 4,
  inputTokens: input,
  outputTokens: 0,
  meanLatencyMs: 10,
});

describe('compareJudges', () => {
  it('names the best judge by κ, then by cost', () => {
    const judges: JudgeDefinition[] = [
      llm('dear', { input: 10, output: 0 }),
      llm('cheap', { input: 1, output: 0 }),
      llm('wrong'),
    ];
    const outcomes = new Map([
      ['dear', verdicts(['pass', 'fail', 'pass', 'fail'])],
      ['cheap', verdicts(['pass', 'fail', 'pass', 'fail'])],
      ['wrong', verdicts(['fail', 'pass', 'fail', 'pass'])],
    ]);
    const comparison = compareJudges(
      ratings,
      judges,
      outcomes,
      new Map([
        ['dear', usage(1_000_000)],
        ['cheap', usage(1_000_000)],
        ['wrong', usage(1)],
      ]),
    );
    expect(comparison.best).toBe('cheap');
    expect(comparison.judges.map((judge) => [judge.name, judge.kappa, judge.cost])).toEqual([
      ['dear', 1, 10],
      ['cheap', 1, 1],
      ['wrong', -1, null],
    ]);
    expect(comparison.judges[2]?.disagreements).toHaveLength(4);
  });

  it('leaves unanswered runs out of the figures, lists them as disagreements with the error, and counts flaky samples', () => {
    const comparison = compareJudges(
      ratings,
      [llm('shaky')],
      new Map([
        [
          'shaky',
          verdicts(
            ['pass', 'fail', null, 'pass'],
            [
              [true, false, true],
              [false, false, false],
            ],
          ),
        ],
      ]),
      new Map(),
    );
    const [judge] = comparison.judges;
    expect(judge).toMatchObject({
      n: 3,
      errors: 1,
      accuracy: 2 / 3,
      confusion: { truePositive: 1, falsePositive: 0, falseNegative: 1, trueNegative: 1 },
      precision: 1,
      recall: 0.5,
    });
    expect(judge?.flake_rate).toBeCloseTo(1 / 3, 12);
    expect(judge?.disagreements).toEqual([
      { run: 'c#3', rating: 'pass', note: null, judged: null, reason: 'judge "x": no answer' },
      { run: 'c#4', rating: 'fail', note: null, judged: 'pass', reason: 'said pass' },
    ]);
  });

  it('gives rank correlations only to judges whose scores say more than pass/fail', () => {
    const scored = new Map(
      ratings.map((rating, index) => [
        rating.run,
        {
          verdict: rating.rating,
          score: [0.9, 0.2, 0.7, 0.4][index] ?? 0,
          samples: [rating.rating === 'pass'],
          reason: null,
          error: null,
        } satisfies JudgeOutcome,
      ]),
    );
    const comparison = compareJudges(
      ratings,
      [llm('scored'), llm('binary')],
      new Map([
        ['scored', scored],
        ['binary', verdicts(['pass', 'fail', 'pass', 'fail'])],
      ]),
      new Map(),
    );
    expect(comparison.judges[0]?.spearman).toBeCloseTo(Math.sqrt(0.8), 12);
    expect(comparison.judges[0]?.kendall_tau).toBeCloseTo(4 / Math.sqrt(6 * 4), 12);
    expect(comparison.judges[1]?.spearman).toBeNull();
  });
});
