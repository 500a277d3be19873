import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmbeddingCache, openAiEmbeddings } from '../../src/cassette/embedding-cache.js';
import { scoreCall } from '../../src/scoring/score-call.js';
import { semanticTexts } from '../../src/scoring/semantic-texts.js';
import type { TestCase } from '../../src/scoring/types.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** A deterministic fake embedding: letter frequencies, so similar wordings are close. */
function embed(text: string): number[] {
  const vector = new Array<number>(26).fill(0);
  for (const char of text.toLowerCase())
    if (char >= 'a' && char <= 'z')
      vector[char.charCodeAt(0) - 97] = (vector[char.charCodeAt(0) - 97] ?? 0) + 1 / 3;
  return vector;
}

describe('EmbeddingCache', () => {
  it('fetches missing embeddings once, caches them in the cassette, and scores the same offline', async () => {
    const upstream = await startScriptedUpstream((request) => {
      const body = JSON.parse(request.body) as { model: string; input: string[] };
      return {
        kind: 'json',
        body: {
          object: 'list',
          model: body.model,
          data: body.input.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: embed(text),
          })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      };
    });
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const testCase: TestCase = {
      expected_tool: 'support',
      arguments: { intent: 'cancel my subscription' },
      rules: { intent: { matching_strategy: 'semantic', threshold: 0.8 } },
    };
    const calls = [{ name: 'support', arguments: { intent: 'cancel the subscription' } }];
    const model = 'text-embedding-3-small';

    const online = new EmbeddingCache(cassette, openAiEmbeddings(`${upstream.url}/v1`, 'sk-test'));
    await online.prefetch(semanticTexts(testCase, calls), model);
    await online.prefetch(semanticTexts(testCase, calls), model);
    expect(upstream.received).toHaveLength(1);
    expect(upstream.received[0]?.url).toBe('/v1/embeddings');
    const scoredOnline = scoreCall(testCase, calls, { embeddings: online.lookup(model) });
    await upstream.close();

    const offline = new EmbeddingCache(cassette, undefined);
    await offline.prefetch(semanticTexts(testCase, calls), model);
    const scoredOffline = scoreCall(testCase, calls, { embeddings: offline.lookup(model) });
    expect(JSON.stringify(scoredOffline)).toBe(JSON.stringify(scoredOnline));
    expect(offline.lookup(model)('cancel my subscription')).toEqual(
      embed('cancel my subscription'),
    );
    expect(scoredOnline.is_correct).toBe(true);
  });
});
