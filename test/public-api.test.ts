import { describe, expect, it } from 'vitest';
import * as calltape from '../src/index.js';

describe('the package main export', () => {
  it('offers the pure scoring engine', () => {
    expect(Object.keys(calltape).sort()).toEqual([
      'CalltapeError',
      'ConversationChain',
      'allowsType',
      'buildTrajectories',
      'cosine',
      'deterministicChecks',
      'errorCodes',
      'isCalltapeError',
      'levenshteinRatio',
      'looseString',
      'matchValue',
      'mergeChecks',
      'namedNormalisers',
      'neverCheck',
      'normaliseBySchema',
      'normaliseDate',
      'normaliseDateTime',
      'omitted',
      'orderCheck',
      'parseCallArguments',
      'reasonCodes',
      'resolvePlaceholders',
      'schemasFromTools',
      'scoreCall',
      'scoreTrajectory',
      'semanticTexts',
      'stepCountCheck',
      'toolCallCheck',
      'trajectoryReasonCodes',
    ]);
    const result = calltape.scoreCall({ expected_tool: 't', arguments: { a: 1 } }, [
      { name: 't', arguments: '{"a":"1"}' },
    ]);
    expect(result.is_correct).toBe(true);
  });

  it('offers trajectory scoring beside it', async () => {
    const [trajectory] = calltape.buildTrajectories([]);
    expect(trajectory).toBeUndefined();
    const result = await calltape.scoreTrajectory(
      { expect: { calls: ['search'] } },
      {
        sessionId: 's',
        turns: [],
        calls: [],
        finalText: '',
        counts: { rounds: 0, calls: 0, byTool: {} },
      },
    );
    expect(result).toMatchObject({ pass: false, reasons: ['missing_call'] });
  });
});

describe('the package runner export (calltape/runner)', () => {
  it('offers the I/O side: judges, case validation, loaders, cassette reading', async () => {
    const runner = await import('calltape/runner');
    expect(Object.keys(runner).sort()).toEqual([
      'EmbeddingCache',
      'createCodeJudges',
      'createLlmJudge',
      'judgePrompt',
      'loadNormalisers',
      'loadSchemaRegistry',
      'openAiEmbeddings',
      'readInteractions',
      'validateTestCase',
    ]);
    expect(() => runner.readInteractions('/nonexistent/cassette.sqlite')).toThrow(
      '/nonexistent/cassette.sqlite: no such cassette',
    );
  });
});
