import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeneratorAnswerError, promptsOf, topicsOf } from './generator-answers.js';
import { spreadCounts } from './spread-counts.js';

describe('topicsOf', () => {
  it('reads a topic tree, fenced or not, trimming names', () => {
    expect(
      topicsOf(
        '```json\n{"topics": [{"topic": " refunds ", "subtopics": ["late", "partial"]}, {"topic": "fees"}]}\n```',
      ),
    ).toEqual([
      { topic: 'refunds', subtopics: ['late', 'partial'] },
      { topic: 'fees', subtopics: [] },
    ]);
  });

  it.each([
    ['Here are topics: refunds', 'the answer is not JSON: Here are topics'],
    ['{"cases": []}', 'the answer has no "topics"'],
    ['{"topics": []}', '"topics" is not a non-empty list'],
    ['{"topics": [{"topic": ""}]}', 'topics[0].topic is not a non-empty string'],
    [
      '{"topics": [{"topic": "a", "subtopics": "b"}]}',
      'topics[0].subtopics is not a list of non-empty strings',
    ],
    ['[{"topics": 1}]', 'the answer has no "topics"'],
  ])('refuses %s, saying what is wrong', (text, message) => {
    expect(() => topicsOf(text)).toThrow(GeneratorAnswerError);
    expect(() => topicsOf(text)).toThrow(message);
  });
});

describe('promptsOf', () => {
  it('reads positive cases with their arguments and negative ones without', () => {
    const text = JSON.stringify({
      cases: [
        {
          prompt: ' Refunds in May? ',
          kind: 'positive',
          guideline: 'past payments',
          arguments: { query: 'refund' },
        },
        { prompt: 'hi', kind: 'negative', guideline: 'greetings', arguments: { query: 'x' } },
      ],
    });
    expect(promptsOf(text)).toEqual([
      {
        prompt: 'Refunds in May?',
        kind: 'positive',
        guideline: 'past payments',
        arguments: { query: 'refund' },
      },
      { prompt: 'hi', kind: 'negative', guideline: 'greetings', arguments: {} },
    ]);
  });

  it.each([
    ['{"cases": {}}', '"cases" is not a list'],
    ['{"cases": [1]}', 'cases[0] is not an object'],
    [
      '{"cases": [{"prompt": " ", "kind": "positive"}]}',
      'cases[0].prompt is not a non-empty string',
    ],
    [
      '{"cases": [{"prompt": "a", "kind": "maybe"}]}',
      'cases[0].kind is not "positive" or "negative"',
    ],
    [
      '{"cases": [{"prompt": "a", "kind": "positive", "arguments": [1]}]}',
      'cases[0].arguments is not an object',
    ],
  ])('refuses %s, saying what is wrong', (text, message) => {
    expect(() => promptsOf(text)).toThrow(message);
  });

  it('never throws anything but GeneratorAnswerError, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        for (const read of [topicsOf, promptsOf]) {
          try {
            read(text);
          } catch (error) {
            expect(error).toBeInstanceOf(GeneratorAnswerError);
          }
        }
      }),
    );
  });
});

describe('spreadCounts', () => {
  it('spreads a total over slots as evenly as whole numbers allow, earlier slots first', () => {
    expect(spreadCounts(5, 3)).toEqual([2, 2, 1]);
    expect(spreadCounts(2, 4)).toEqual([1, 1, 0, 0]);
    expect(spreadCounts(3, 0)).toEqual([]);
    fc.assert(
      fc.property(fc.nat(500), fc.integer({ min: 1, max: 50 }), (total, slots) => {
        const counts = spreadCounts(total, slots);
        expect(counts.reduce((sum, count) => sum + count, 0)).toBe(total);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        expect([...counts].sort((a, b) => b - a)).toEqual(counts);
      }),
    );
  });
});
