import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArgumentsPolicy, CallPolicy } from './policy-types.js';
import { sampled } from './sample.js';
import { semanticLookup, semanticRules, textsToEmbed } from './semantic-lookup.js';

const meaning = (id: string, value: string, sample?: number): ArgumentsPolicy => ({
  id,
  kind: 'arguments',
  tool: 'lookup',
  ...(sample === undefined ? {} : { sample }),
  arguments: {
    id: { matching_strategy: 'semantic', value },
    unit: { any_of: ['celsius', 'fahrenheit'] },
  },
});

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('semanticRules', () => {
  it('finds the arguments policies with semantic rules, each with the texts its rules compare', () => {
    const policies: CallPolicy[] = [
      { id: 'schema', kind: 'schema' },
      meaning('meaning', 'the first record'),
      { id: 'plain', kind: 'arguments', tool: 'lookup', arguments: { id: { value: 'A' } } },
      // A semantic rule with no text to compare has nothing to embed.
      {
        id: 'bare',
        kind: 'arguments',
        tool: 'lookup',
        arguments: { id: { matching_strategy: 'semantic' } },
      },
    ];
    expect(semanticRules(policies)).toEqual([{ policy: policies[1], texts: ['the first record'] }]);
  });
});

describe('textsToEmbed', () => {
  const rules = semanticRules([meaning('meaning', 'the first record')]);

  it('is the rules’ texts, then every string in the arguments; nothing when no rule applies', () => {
    expect([
      ...(textsToEmbed(rules, '{"id":"A","tags":["x",{"y":"z"}],"n":1}', 'k') ?? []),
    ]).toEqual(['the first record', 'A', 'x', 'z']);
    // Arguments that are not JSON still let the rule compare (against nothing the call said).
    expect([...(textsToEmbed(rules, '{"id":', 'k') ?? [])]).toEqual(['the first record']);
    expect(textsToEmbed([], '{"id":"A"}', 'k')).toBeUndefined();
  });

  it('holds each rule text and argument string once, and only for a rule sampled for the call (property)', () => {
    const sampledRules = semanticRules([meaning('half', 'the first record', 0.5)]);
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, sampleKey) => {
        const texts = textsToEmbed(sampledRules, JSON.stringify(value), sampleKey);
        const expected = sampled(0.5, 'half', sampleKey)
          ? [...new Set(['the first record', ...strings(value)])]
          : undefined;
        expect(texts && [...texts]).toEqual(expected);
      }),
    );
  });
});

describe('semanticLookup', () => {
  it('asks the runner for the texts with the embedding model, and asks nothing without a runner or a rule', async () => {
    const rules = semanticRules([meaning('meaning', 'the first record')]);
    const asked: [string[], string][] = [];
    const vectors = (text: string): number[] | undefined => (text === 'A' ? [1, 0] : undefined);
    const runner = (texts: readonly string[], model: string) => (
      asked.push([[...texts], model]),
      Promise.resolve(vectors)
    );
    expect(await semanticLookup(rules, '{"id":"A"}', 'k', runner, 'embed-small')).toBe(vectors);
    expect(asked).toEqual([[['the first record', 'A'], 'embed-small']]);
    expect(await semanticLookup([], '{"id":"A"}', 'k', runner, 'embed-small')).toBeUndefined();
    expect(
      await semanticLookup(rules, '{"id":"A"}', 'k', undefined, 'embed-small'),
    ).toBeUndefined();
    expect(asked).toHaveLength(1);
  });
});
