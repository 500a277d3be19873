import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableText, printableUrl } from './printable-url.js';

describe('printableUrl', () => {
  it('masks user-info', () => {
    expect(printableUrl('http://user:password@collector:4318/v1/traces')).toBe(
      'http://REDACTED@collector:4318/v1/traces',
    );
    expect(printableUrl('https://token@example.com')).toBe('https://REDACTED@example.com/');
  });

  it('masks credential-looking query values, keeps the rest', () => {
    expect(
      printableUrl(
        'https://h/cb?code=abc123&state=x&auth=s3cret&access_token=t0k&X-Api-Key=k&page=2#frag',
      ),
    ).toBe(
      'https://h/cb?code=REDACTED&state=x&auth=REDACTED&access_token=REDACTED&X-Api-Key=REDACTED&page=2#frag',
    );
    expect(printableUrl('https://h/x?client_secret=abc&refreshToken=def')).toBe(
      'https://h/x?client_secret=REDACTED&refreshToken=REDACTED',
    );
  });

  it('returns a URL without credentials as given', () => {
    expect(printableUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
    expect(printableUrl('http://h/?model=gpt')).toBe('http://h/?model=gpt');
  });

  it('masks the user-info and query values of a text that is not a URL', () => {
    expect(printableUrl('collector//user:pw@host x?token=abc')).toBe(
      'collector//REDACTED@host x?token=REDACTED',
    );
  });

  it('never prints a password or credential query value (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/);
    fc.assert(
      fc.property(
        secret,
        secret,
        fc.constantFrom('http', 'https'),
        fc.constantFrom('key', 'token', 'access_token', 'code', 'auth', 'api_key', 'client_secret'),
        (password, value, scheme, name) => {
          const printed = printableUrl(
            `${scheme}://someone:${password}@host:1/p?a=1&${name}=${value}`,
          );
          expect(printed).not.toContain(password);
          expect(printed).not.toContain(value);
          expect(printed).not.toContain('someone');
        },
      ),
    );
  });
});

describe('printableText', () => {
  it('makes every URL quoted in a message printable', () => {
    expect(
      printableText(
        'Request cannot be constructed from a URL that includes credentials: http://u:p4ss@h:4318/v1/traces?token=abc',
      ),
    ).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://REDACTED@h:4318/v1/traces?token=REDACTED',
    );
    expect(printableText('no url here')).toBe('no url here');
  });
});
