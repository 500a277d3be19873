import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { literalGate } from './literal-gate.js';

/** Fragments that make literals contain one another, and texts that hold some of them. */
const fragment = fc.constantFrom('sk-', 'ant-', 'proj-', 'AIza', 'a', 'b', '-', '');
const literal = fc.array(fragment, { maxLength: 4 }).map((parts) => parts.join(''));
const literalSets = fc.array(
  fc.option(fc.array(literal, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  { maxLength: 5 },
);
const text = fc.array(fc.oneof(fragment, fc.constantFrom('s', 'k', 'x', 'AI')), { maxLength: 16 });

describe('literalGate', () => {
  it('says an expression may match exactly when the text holds one of its literals (property)', () => {
    fc.assert(
      fc.property(literalSets, text, (sets, parts) => {
        const input = parts.join('');
        expect(literalGate(sets)(input)).toEqual(
          sets.map((literals) => literals === undefined || literals.some((l) => input.includes(l))),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('rules out the longer key shapes and credentials when the shorter literal they contain is absent', () => {
    const gate = literalGate([['sk-proj-Zz09abcdef'], ['sk-ant-'], ['sk-'], ['AIza'], undefined]);
    expect(gate('{"plain":"json"}')).toEqual([false, false, false, false, true]);
    expect(gate('an sk-ant-api03 key')).toEqual([false, true, true, false, true]);
    expect(gate('sk-proj-Zz09abcdef')).toEqual([true, false, true, false, true]);
  });
});
