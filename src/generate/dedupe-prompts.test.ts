import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levenshteinRatio } from '../scoring/match/match-value.js';
import { dedupePrompts, normalisePrompt } from './dedupe-prompts.js';

/** Rewordings that leave a prompt the same request: case, punctuation, spacing, one dropped letter. */
const paraphrase = fc.constantFrom(
  (text: string) => text.toUpperCase(),
  (text: string) => `  ${text}?!`,
  (text: string) => text.replace(/ /g, '   '),
  (text: string) => `${text.slice(0, -1)}.`,
  (text: string) => `"${text.replace(/ /, ', ')}"`,
);
const word = fc.stringMatching(/^[a-z]{4,9}$/);
const sentence = fc.array(word, { minLength: 6, maxLength: 9 }).map((words) => words.join(' '));

describe('normalisePrompt', () => {
  it('folds case, punctuation, symbols, spacing and compatibility forms', () => {
    expect(normalisePrompt("  What's   my BALANCE?! ")).toBe('whats my balance');
    expect(normalisePrompt('ｆｕｌｌ　width — €5')).toBe('full width 5');
  });
});

describe('dedupePrompts', () => {
  it('keeps exactly one of each group of injected paraphrases, the first in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(sentence, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), paraphrase), { maxLength: 12 }),
        fc.integer(),
        (bases, injections, seed) => {
          // Bases far apart, so any drop is a paraphrase drop.
          fc.pre(
            bases.every((left, index) =>
              bases
                .slice(index + 1)
                .every(
                  (right) => levenshteinRatio(normalisePrompt(left), normalisePrompt(right)) < 0.7,
                ),
            ),
          );
          const items = bases.map((text, group) => ({ text, group }));
          for (const [pick, reword] of injections) {
            const group = pick % bases.length;
            items.splice(Math.abs(seed + pick) % (items.length + 1), 0, {
              text: reword(bases[group] ?? ''),
              group,
            });
          }
          const { kept, dropped } = dedupePrompts(items, (item) => item.text, 0.9);
          expect(kept.map((item) => item.group).sort((a, b) => a - b)).toEqual(
            bases.map((_, group) => group),
          );
          expect(kept).toEqual(
            items.filter(
              (item, index) => items.findIndex((other) => other.group === item.group) === index,
            ),
          );
          expect(dropped.every(({ item, duplicateOf }) => item.group === duplicateOf.group)).toBe(
            true,
          );
          expect(kept.length + dropped.length).toBe(items.length);
        },
      ),
    );
  });

  it("drops a prompt that repeats one already in the suite, and never returns the suite's own", () => {
    const { kept, dropped } = dedupePrompts(
      ['Show my refunds from May', 'What is 2 + 2?'],
      (text) => text,
      0.9,
      ['show my refunds from may!'],
    );
    expect(kept).toEqual(['What is 2 + 2?']);
    expect(dropped).toEqual([
      { item: 'Show my refunds from May', duplicateOf: 'show my refunds from may!' },
    ]);
  });

  it('keeps prompts that differ in what they ask, however alike in form', () => {
    expect(
      dedupePrompts(['Show my refunds from May', 'Show my payments to Acme'], (text) => text, 0.9)
        .kept,
    ).toHaveLength(2);
  });
});
