import { describe, expect, it } from 'vitest';
import { passThroughTarget } from './pass-through-upstream.js';

describe('passThroughTarget: where a route no adapter captures goes', () => {
  it('sends Gemini API paths to gemini (countTokens, model listing, files)', () => {
    expect(passThroughTarget('/v1beta/models/gemini-2.5-flash:countTokens', false)).toEqual({
      upstream: 'gemini',
    });
    expect(passThroughTarget('/v1beta/models', false)).toEqual({ upstream: 'gemini' });
    expect(passThroughTarget('/v1/models/gemini-2.5-flash:countTokens', false)).toEqual({
      upstream: 'gemini',
    });
  });

  it('sends Vertex AI paths (v1 and v1beta1) to vertex with the location the path names', () => {
    expect(
      passThroughTarget(
        '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens',
        false,
      ),
    ).toEqual({ upstream: 'vertex', location: 'us-central1' });
    expect(passThroughTarget('/v1/projects/p/locations/global/endpoints', false)).toEqual({
      upstream: 'vertex',
      location: 'global',
    });
  });

  it('sends /api/… to ollama and /openai/… to azure', () => {
    expect(passThroughTarget('/api/tags', false)).toEqual({ upstream: 'ollama' });
    expect(passThroughTarget('/openai/deployments/d/embeddings', false)).toEqual({
      upstream: 'azure',
    });
  });

  it('sends everything else by who sent it, as before: OpenAI paths to openai, Anthropic clients to anthropic', () => {
    expect(passThroughTarget('/v1/models', false)).toEqual({ upstream: 'openai' });
    expect(passThroughTarget('/v1/models/gpt-4o', false)).toEqual({ upstream: 'openai' });
    expect(passThroughTarget('/v1/files', false)).toEqual({ upstream: 'openai' });
    expect(passThroughTarget('/v1/messages/count_tokens', true)).toEqual({ upstream: 'anthropic' });
  });
});
