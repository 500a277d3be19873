import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateSamples, samplesDisagree } from './aggregate-samples.js';

const pass = { pass: true };
const fail = { pass: false };

describe('aggregateSamples', () => {
  it('majority: more passes than fails, a tie is a fail', () => {
    expect(aggregateSamples([pass, pass, fail], 'majority', 0.5).pass).toBe(true);
    expect(aggregateSamples([pass, fail], 'majority', 0.5).pass).toBe(false);
  });
  it('all, any and mean', () => {
    expect(aggregateSamples([pass, fail], 'all', 0.5).pass).toBe(false);
    expect(aggregateSamples([pass, fail], 'any', 0.5).pass).toBe(true);
    expect(
      aggregateSamples(
        [
          { pass: true, score: 0.9 },
          { pass: false, score: 0.2 },
        ],
        'mean',
        0.5,
      ),
    ).toEqual({ pass: true, score: 0.55 });
    expect(
      aggregateSamples(
        [
          { pass: true, score: 0.6 },
          { pass: false, score: 0.2 },
        ],
        'mean',
        0.5,
      ).pass,
    ).toBe(false);
  });
  it('agrees with a single sample whatever the rule', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom('majority' as const, 'all' as const, 'any' as const, 'mean' as const),
        (value, rule) => aggregateSamples([{ pass: value }], rule, 0.5).pass === value,
      ),
    );
  });
  it('all ⇒ majority ⇒ any', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.boolean().map((value) => ({ pass: value })),
          { minLength: 1, maxLength: 9 },
        ),
        (samples) => {
          const all = aggregateSamples(samples, 'all', 0.5).pass;
          const majority = aggregateSamples(samples, 'majority', 0.5).pass;
          const any = aggregateSamples(samples, 'any', 0.5).pass;
          return (!all || majority) && (!majority || any);
        },
      ),
    );
  });
  it('flags disagreeing samples', () => {
    expect(samplesDisagree([true, true])).toBe(false);
    expect(samplesDisagree([true, false, true])).toBe(true);
  });
});
