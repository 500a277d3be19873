import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { createUpstreams, maxVertexPools, vertexOrigin, type Upstreams } from './upstreams.js';

let upstreams: Upstreams | undefined;
afterEach(async () => {
  await upstreams?.destroy();
  upstreams = undefined;
});

function make(overrides: Partial<Config> = {}): Upstreams {
  upstreams = createUpstreams({ ...defaultConfig, ...overrides });
  return upstreams;
}

function originOf(result: ReturnType<Upstreams['for']>): string {
  if (result instanceof CalltapeError) throw result;
  return result.url;
}

describe('createUpstreams: the upstream each route goes to', () => {
  it('takes each named upstream from its setting, one pool per name', () => {
    const all = make({
      upstream: 'http://127.0.0.1:1',
      anthropicUpstream: 'http://127.0.0.1:2',
      geminiUpstream: 'http://127.0.0.1:3',
      ollamaUpstream: 'http://127.0.0.1:4',
      azureUpstream: 'http://127.0.0.1:5/prefix',
      vertexUpstream: 'http://127.0.0.1:6',
    });
    expect(originOf(all.for({ upstream: 'openai' }))).toBe('http://127.0.0.1:1');
    expect(originOf(all.for({ upstream: 'anthropic' }))).toBe('http://127.0.0.1:2');
    expect(originOf(all.for({ upstream: 'gemini' }))).toBe('http://127.0.0.1:3');
    expect(originOf(all.for({ upstream: 'ollama' }))).toBe('http://127.0.0.1:4');
    expect(all.for({ upstream: 'azure' })).toMatchObject({ pathPrefix: '/prefix' });
    expect(originOf(all.for({ upstream: 'vertex', location: 'us-east5' }))).toBe(
      'http://127.0.0.1:6',
    );
    expect(all.for({ upstream: 'gemini' })).toBe(all.for({ upstream: 'gemini' }));
  });

  it('defaults Vertex AI to the regional endpoint of the location in the path, global without a prefix', () => {
    const all = make();
    expect(originOf(all.for({ upstream: 'vertex', location: 'europe-west4' }))).toBe(
      'https://europe-west4-aiplatform.googleapis.com',
    );
    expect(originOf(all.for({ upstream: 'vertex', location: 'global' }))).toBe(
      'https://aiplatform.googleapis.com',
    );
    expect(originOf(all.for({ upstream: 'gemini' }))).toBe(
      'https://generativelanguage.googleapis.com',
    );
    expect(originOf(all.for({ upstream: 'ollama' }))).toBe('http://127.0.0.1:11434');
  });

  it('never lets a location from the path steer the host elsewhere', () => {
    const all = make();
    for (const location of ['evil.com#', 'a@evil.com', 'US-CENTRAL1', '', 'x/y', undefined])
      expect(all.for({ upstream: 'vertex', location })).toBeInstanceOf(CalltapeError);
    expect(vertexOrigin('user@host')).toBeUndefined();
  });

  it('keeps a bounded set of regional pools, the oldest closed past it', () => {
    const all = make();
    const first = all.for({ upstream: 'vertex', location: 'region-0' });
    for (let index = 1; index <= maxVertexPools; index++)
      all.for({ upstream: 'vertex', location: `region-${index}` });
    // region-0 was closed and is created afresh when asked for again.
    expect(all.for({ upstream: 'vertex', location: 'region-0' })).not.toBe(first);
  });

  it('answers an Azure route without azureUpstream with an error saying how to set it', () => {
    const error = make().for({ upstream: 'azure' });
    expect(error).toBeInstanceOf(CalltapeError);
    expect((error as CalltapeError).message).toContain('azureUpstream');
    expect((error as CalltapeError).message).toContain('CALLTAPE_AZURE_UPSTREAM');
  });
});
