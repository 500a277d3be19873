import { describe, expect, it } from 'vitest';
import { resolveWire } from '../adapters.js';
import { splitPathQuery } from '../wire-route.js';
import { geminiAdapter } from './gemini-adapter.js';

const routeOf = (method: string, pathWithQuery: string) => {
  const { path, query } = splitPathQuery(pathWithQuery);
  const resolved = resolveWire(method, path, query);
  return resolved && { adapter: resolved.adapter.id, ...resolved.route };
};

describe('Gemini routes', () => {
  it.each([
    [
      '/v1beta/models/gemini-2.5-flash:generateContent?key=AIza-secret',
      { upstream: 'gemini', model: 'gemini-2.5-flash' },
    ],
    [
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      { upstream: 'gemini', model: 'gemini-2.5-flash', stream: 'sse' },
    ],
    [
      '/v1/models/gemini-2.5-pro:streamGenerateContent',
      { upstream: 'gemini', model: 'gemini-2.5-pro', stream: 'json-array' },
    ],
    [
      '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      { upstream: 'vertex', model: 'gemini-2.5-flash', location: 'us-central1' },
    ],
    [
      '/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro:streamGenerateContent?alt=sse',
      { upstream: 'vertex', model: 'gemini-3-pro', location: 'global', stream: 'sse' },
    ],
    [
      '/v1/publishers/google/models/gemini-2.5-flash:generateContent',
      { upstream: 'vertex', model: 'gemini-2.5-flash', location: 'global' },
    ],
  ])('captures POST %s', (pathWithQuery, expected) => {
    expect(routeOf('POST', pathWithQuery)).toEqual({
      adapter: 'gemini',
      path: pathWithQuery.split('?')[0],
      ...expected,
    });
  });

  it.each([
    ['POST', '/v1beta/models/gemini-2.5-flash:countTokens'],
    ['POST', '/v1beta/models/gemini-2.5-flash:embedContent'],
    ['GET', '/v1beta/models/gemini-2.5-flash:generateContent'],
    ['POST', '/v1beta/models'],
    ['POST', '/v1beta/models/a/b:generateContent'],
  ])('leaves %s %s to pass through', (method, pathWithQuery) => {
    expect(routeOf(method, pathWithQuery)).toBeUndefined();
  });

  it('answers in the form the path asks for: events, the JSON array, or one object', () => {
    const whole = JSON.stringify({
      candidates: [
        { content: { parts: [{ text: 'Hi' }], role: 'model' }, finishReason: 'STOP', index: 0 },
      ],
    });
    const route = (pathWithQuery: string) => {
      const { path, query } = splitPathQuery(pathWithQuery);
      return geminiAdapter.route('POST', path, query);
    };
    const sse = route('/v1beta/models/m:streamGenerateContent?alt=sse');
    const array = route('/v1beta/models/m:streamGenerateContent');
    const json = route('/v1beta/models/m:generateContent');
    expect(geminiAdapter.requestedForm({}, sse).stream).toBe(true);
    expect(geminiAdapter.requestedForm({}, json).stream).toBe(false);
    expect(
      geminiAdapter.convertBody(whole, { stream: true, includeUsage: false }, sse)?.body,
    ).toMatch(/^data: \{/);
    expect(
      geminiAdapter.convertBody(whole, { stream: true, includeUsage: false }, array)?.body,
    ).toMatch(/^\[\{/);
    expect(geminiAdapter.parseRequest({ contents: [] }, array)).toMatchObject({
      model: 'm',
      stream: true,
    });
  });
});
