import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passThroughTarget, signedForBedrock } from './pass-through-upstream.js';

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

/** A SigV4 `Authorization` as the AWS SDK and aws4fetch write it. */
const sigV4 = (key: string, date: string, region: string, service: string): string =>
  `AWS4-HMAC-SHA256 Credential=${key}/${date}/${region}/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=0123abcd`;
const token = fc.stringMatching(/^[A-Za-z0-9-]{1,24}$/);

describe('signedForBedrock: a request signed for Bedrock goes to Bedrock, whatever its path', () => {
  it('recognises SigV4 for service bedrock, whatever the key, date and region', () => {
    fc.assert(
      fc.property(token, fc.stringMatching(/^\d{8}$/), token, (key, date, region) => {
        expect(signedForBedrock(sigV4(key, date, region, 'bedrock'))).toBe(true);
      }),
    );
    expect(
      signedForBedrock(
        'AWS4-HMAC-SHA256 Credential=AKID/20261203/us-east-1/bedrock/aws4_request,SignedHeaders=host,Signature=ab',
      ),
    ).toBe(true);
  });

  it('never claims an OpenAI, Anthropic or Gemini key, nor SigV4 for another service', () => {
    for (const authorization of [
      undefined,
      'Bearer sk-proj-abc',
      'Bearer ABSKbedrockapikey',
      'Basic dXNlcjpwYXNz',
      sigV4('AKID', '20261203', 'us-east-1', 'bedrock-agent'),
      sigV4('AKID', '20261203', 'us-east-1', 's3'),
      `Bearer ${sigV4('AKID', '20261203', 'us-east-1', 'bedrock')}`,
    ])
      expect(signedForBedrock(authorization), authorization).toBe(false);
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.startsWith('AWS4-HMAC-SHA256'));
        expect(signedForBedrock(text)).toBe(false);
      }),
    );
  });

  it('sends a request signed for Bedrock to bedrock before any path rule (guardrails, async invocations, count-tokens)', () => {
    for (const path of [
      '/guardrail/gr-1/version/DRAFT/apply',
      '/async-invoke',
      '/model/anthropic.claude-sonnet-4-5/count-tokens',
      '/v1beta/models',
    ])
      expect(passThroughTarget(path, false, true)).toEqual({ upstream: 'bedrock' });
    expect(passThroughTarget('/guardrail/gr-1/version/DRAFT/apply', false)).toEqual({
      upstream: 'openai',
    });
  });
});
