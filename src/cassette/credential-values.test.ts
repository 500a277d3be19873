import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialValues, secretHeaderNames } from './credential-values.js';
import { createRedactor } from './redact.js';

describe('credentialValues', () => {
  it('finds the credential values an agent sent', () => {
    expect(
      credentialValues(
        { authorization: 'Bearer sk-abc123456', 'x-api-key': 'ant-key-1' },
        '/v1/x?key=QUERY123&q=1',
      ),
    ).toEqual(['sk-abc123456', 'ant-key-1', 'QUERY123']);
  });

  it("takes a redactor's secret header names as they are, like the configured names", () => {
    const redactor = createRedactor(['X-Org-Token'], []);
    const headers = { 'X-Org-Token': 'ORG-123456789', authorization: 'Bearer sk-abc123456' };
    expect(credentialValues(headers, '/v1', redactor.secretHeaders)).toEqual(
      credentialValues(headers, '/v1', ['X-Org-Token']),
    );
    expect(credentialValues(headers, '/v1', redactor.secretHeaders)).toEqual([
      'ORG-123456789',
      'sk-abc123456',
    ]);
  });

  it('finds every credential header whatever its case, without its scheme, and every cookie value (property)', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
    // Header names are ASCII: flipping each letter's case covers how agents spell them.
    const cased = (name: string) =>
      fc
        .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
        .map((upper) =>
          upper
            .map((up, index) => (up ? name.charAt(index).toUpperCase() : name.charAt(index)))
            .join(''),
        );
    const credentialHeader = fc
      .constantFrom(...secretHeaderNames.filter((name) => !name.endsWith('cookie')))
      .chain((name) => fc.tuple(cased(name), fc.constantFrom('', 'Bearer ', 'basic '), token));
    fc.assert(
      fc.property(
        credentialHeader,
        fc.array(fc.tuple(token, token), { maxLength: 4 }),
        ([name, scheme, value], cookies) => {
          const headers = {
            [name]: `${scheme}${value}`,
            'content-type': 'application/json',
            ...(cookies.length > 0
              ? { cookie: cookies.map(([key, text]) => `${key}=${text}`).join('; ') }
              : {}),
          };
          expect(credentialValues(headers, '/v1/chat/completions')).toEqual([
            value,
            ...cookies.map(([, text]) => text),
          ]);
        },
      ),
    );
  });

  it('percent-decodes a cookie value, keeping the raw one too, and ignores empty values', () => {
    expect(credentialValues({ cookie: 'a=s%3Aabc; b=; c="quoted"' }, '/v1')).toEqual([
      's%3Aabc',
      's:abc',
      'quoted',
    ]);
    expect(credentialValues({ authorization: 'Bearer ' }, '/v1?key=')).toEqual([]);
  });
});

describe('credential query parameters', () => {
  it('takes ?auth=, ?code=, ?access_token= and credential-looking names as credentials, and redacts them in paths', () => {
    const path =
      '/mcp/notes?auth=auth-value-123&code=oauth-code-456&access_token=access-789xyz&refreshToken=refresh-000abc&page=2';
    expect(credentialValues({}, path)).toEqual([
      'auth-value-123',
      'oauth-code-456',
      'access-789xyz',
      'refresh-000abc',
    ]);
    expect(createRedactor([], []).path(path)).toBe(
      '/mcp/notes?auth=REDACTED&code=REDACTED&access_token=REDACTED&refreshToken=REDACTED&page=2',
    );
  });
});
