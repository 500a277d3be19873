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
});
