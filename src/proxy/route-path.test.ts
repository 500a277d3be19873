import { describe, expect, it } from 'vitest';
import { nearMissHint, routePath } from './route-path.js';

describe('routePath', () => {
  it('serves POST /messages as /v1/messages, and leaves the routes calltape captures as they are', () => {
    expect(routePath('POST', '/messages')).toEqual({ path: '/v1/messages', nearMiss: undefined });
    for (const path of ['/v1/messages', '/v1/chat/completions', '/v1/responses', '/v1/models'])
      expect(routePath('POST', path)).toEqual({ path, nearMiss: undefined });
    expect(routePath('GET', '/messages').path).toBe('/messages');
  });

  it('names the base URL to set for paths off by a /v1', () => {
    expect(routePath('POST', '/chat/completions').nearMiss).toEqual({
      variable: 'OPENAI_BASE_URL',
      suffix: '/v1',
    });
    expect(routePath('POST', '/responses').nearMiss).toEqual({
      variable: 'OPENAI_BASE_URL',
      suffix: '/v1',
    });
    expect(routePath('POST', '/v1/v1/messages').nearMiss).toEqual({
      variable: 'ANTHROPIC_BASE_URL',
      suffix: '',
    });
    expect(routePath('POST', '/v1/v1/chat/completions').nearMiss).toEqual({
      variable: 'OPENAI_BASE_URL',
      suffix: '/v1',
    });
    expect(
      nearMissHint(
        { variable: 'ANTHROPIC_BASE_URL', suffix: '' },
        'POST',
        '/v1/v1/messages',
        'http://127.0.0.1:4545',
      ),
    ).toMatch(/set ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:4545$/);
  });

  it("names each wire's variable when its base URL repeats the segment the SDK adds", () => {
    expect(
      routePath('POST', '/v1beta/v1beta/models/gemini-2.5-flash:generateContent').nearMiss,
    ).toEqual({
      variable: 'GOOGLE_GEMINI_BASE_URL',
      suffix: '',
    });
    expect(routePath('POST', '/api/api/chat').nearMiss).toEqual({
      variable: 'OLLAMA_HOST',
      suffix: '',
    });
    expect(routePath('POST', '/openai/openai/v1/chat/completions').nearMiss).toEqual({
      variable: 'AZURE_OPENAI_ENDPOINT',
      suffix: '',
    });
    expect(routePath('POST', '/api/chat').nearMiss).toBeUndefined();
    const hint = nearMissHint(
      { variable: 'OLLAMA_HOST', suffix: '' },
      'POST',
      '/api/api/chat',
      'http://127.0.0.1:4545',
    );
    expect(hint).toContain('looks off by a /api; set OLLAMA_HOST=http://127.0.0.1:4545');
    // The routes named are the ones the adapters capture, Azure's included.
    expect(hint).toContain('/openai/…/chat/completions');
  });
});
