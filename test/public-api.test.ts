import { describe, expect, it } from 'vitest';
import * as calltape from '../src/index.js';

describe('the package main export', () => {
  it('offers the pure scoring engine', () => {
    expect(Object.keys(calltape).sort()).toEqual(['allowsType', 'cosine', 'levenshteinRatio', 'looseString', 'matchValue', 'namedNormalisers', 'normaliseBySchema', 'normaliseDate', 'normaliseDateTime', 'omitted', 'parseCallArguments', 'reasonCodes', 'resolvePlaceholders', 'schemasFromTools', 'scoreCall', 'semanticTexts']);
    const result = calltape.scoreCall({ expected_tool: 't', arguments: { a: 1 } }, [{ name: 't', arguments: '{"a":"1"}' }]);
    expect(result.is_correct).toBe(true);
  });
});
