import { describe, expect, it } from 'vitest';
import { draftCase, nearestGuideline } from './draft-case.js';

const guidelines = {
  should_use: ['the customer asks about past payments', 'refund questions'],
  should_not_use: ['questions about balances', 'greetings and small talk'],
  topics: [],
};
const origin = { generator: 'gen-1', guidelinesFile: 'guidelines.yaml' };

describe('draftCase', () => {
  it('makes a positive prompt a pending case expecting the tool and the arguments it determines, others ignored', () => {
    expect(
      draftCase(
        {
          prompt: 'Refunds from May?',
          kind: 'positive',
          guideline: 'The customer asks about past payment',
          arguments: { since: '2026-05-01' },
          tool: 'search_transactions',
          topic: 'refunds',
        },
        guidelines,
        origin,
      ),
    ).toEqual({
      test_id: expect.stringMatching(/^gen-search_transactions-[0-9a-f]{8}$/) as string,
      prompt: 'Refunds from May?',
      expected_tool: 'search_transactions',
      arguments: { since: '2026-05-01' },
      extra_arguments: 'ignore',
      review: 'pending',
      provenance: {
        source: 'generated',
        tool: 'search_transactions',
        kind: 'positive',
        guideline: 'the customer asks about past payments',
        topic: 'refunds',
        generator: 'gen-1',
        guidelines_file: 'guidelines.yaml',
      },
    });
  });

  it('makes a negative prompt a case that forbids the tool (another tool may rightly answer it)', () => {
    const draft = draftCase(
      {
        prompt: 'Hi there',
        kind: 'negative',
        guideline: 'greetings',
        arguments: {},
        tool: 'search_transactions',
        topic: 'refunds',
      },
      guidelines,
      origin,
    );
    expect(draft).toMatchObject({
      never: ['search_transactions'],
      review: 'pending',
      provenance: { kind: 'negative', guideline: 'greetings and small talk' },
    });
    expect(draft).not.toHaveProperty('expected_tool');
  });

  it('gives the same prompt the same id however it is spelled, and different prompts different ids', () => {
    const id = (prompt: string): unknown =>
      draftCase(
        { prompt, kind: 'negative', guideline: '', arguments: {}, tool: 't', topic: '' },
        guidelines,
        origin,
      )['test_id'];
    expect(id('Hello, there!')).toBe(id('hello there'));
    expect(id('Hello there')).not.toBe(id('Goodbye there'));
  });
});

describe('nearestGuideline', () => {
  it('snaps a paraphrased guideline to the closest one listed, and keeps it when the list is empty', () => {
    expect(nearestGuideline('Questions on balance', guidelines.should_not_use)).toBe(
      'questions about balances',
    );
    expect(nearestGuideline('anything', [])).toBe('anything');
  });
});
