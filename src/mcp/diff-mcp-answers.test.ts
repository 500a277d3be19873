import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { diffMcpAnswers } from './diff-mcp-answers.js';

describe('diffMcpAnswers', () => {
  it('names each differing leaf of the result, with both values', () => {
    const recorded = {
      result: { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } },
    };
    const live = {
      result: { content: [{ type: 'text', text: '6' }], structuredContent: { sum: 6 } },
    };
    expect(diffMcpAnswers(recorded, live)).toEqual([
      'result.content[0].text: "5" → "6"',
      'result.structuredContent.sum: 5 → 6',
    ]);
  });

  it('tells a result that became an error', () => {
    expect(
      diffMcpAnswers({ result: { content: [] } }, { error: { code: -32602, message: 'bad' } }),
    ).toEqual([
      'result: {"content":[]} → (absent)',
      'error: (absent) → {"code":-32602,"message":"bad"}',
    ]);
  });

  it('finds no difference between an answer and itself, whatever its key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (dictionary) => {
        const result = dictionary as { [key: string]: JsonValue };
        const reordered = Object.fromEntries(Object.entries(result).reverse()) as {
          [key: string]: JsonValue;
        };
        expect(diffMcpAnswers({ result }, { result: reordered })).toEqual([]);
      }),
    );
  });
});
