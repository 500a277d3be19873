import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileUserPattern } from '../scoring/match/user-pattern.js';
import { requiredLiteral } from './required-literal.js';

describe('requiredLiteral', () => {
  it('reads the plain start of a pattern, less a character a quantifier makes optional', () => {
    expect(requiredLiteral('sk-[A-Za-z0-9_-]{20,}', '')).toBe('sk-');
    expect(requiredLiteral('acct_[0-9a-f]{12,}', '')).toBe('acct_');
    expect(requiredLiteral('token=\\w+', 's')).toBe('token=');
    expect(requiredLiteral('keys?', '')).toBe('key');
    expect(requiredLiteral('abc{0}d', '')).toBe('ab');
    expect(requiredLiteral('literal', '')).toBe('literal');
  });

  it('gives none where a match could do without one', () => {
    expect(requiredLiteral('sk-abc|other', '')).toBeUndefined();
    expect(requiredLiteral('(?:sk-|pk-)x', '')).toBeUndefined();
    expect(requiredLiteral('sk-abc', 'i')).toBeUndefined();
    expect(requiredLiteral('(?i)sk-abc', '')).toBeUndefined();
    expect(requiredLiteral('\\bkey', '')).toBeUndefined();
    expect(requiredLiteral('^key', 'm')).toBeUndefined();
    expect(requiredLiteral('ab?', '')).toBeUndefined();
    expect(requiredLiteral('.*', '')).toBeUndefined();
  });

  it('gives none when an inline flag group stands between the literal and a quantifier (CI: =a(?i)* matched "=")', () => {
    expect(requiredLiteral('=a(?i)*', '')).toBeUndefined();
    expect(compileUserPattern('=a(?i)*', '').replaceAll('=', '<X>')).toBe('<X>');
  });

  it('never skips a text the pattern matches, for any pattern of these pieces (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      '-',
      '_',
      '=',
      ' ',
      '?',
      '*',
      '+',
      '{2}',
      '{0,1}',
      '|',
      '.',
      '\\d',
      '[ab]',
      '(',
      ')',
      '(?i)',
      '^',
      '$',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', 'i', 'm', 's'),
        fc.string({
          unit: fc.constantFrom('a', 'b', 'A', '-', '_', '=', ' ', '1', '\n'),
          maxLength: 24,
        }),
        (pieces, flags, text) => {
          const source = pieces.join('');
          let pattern;
          try {
            pattern = compileUserPattern(source, flags);
          } catch {
            return; // not a pattern RE2 accepts
          }
          const literal = requiredLiteral(source, flags);
          if (literal !== undefined && !text.includes(literal))
            expect(pattern.replaceAll(text, '<X>')).toBe(text);
        },
      ),
      { numRuns: 2000, examples: [[['=', 'a', '(?i)', '*'], '', '=']] },
    );
  });
});
