import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../test/support/split-bytes.js';
import { builtinBodyPatterns, createRedactor, credentialMarker } from './redact.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

describe('createRedactor', () => {
  it('stores allowlisted headers only: secrets, organisation ids, unknown and configured names never', () => {
    const redactor = createRedactor(['X-Stainless-Secret'], []);
    expect(
      redactor.headers({
        Authorization: 'Bearer sk-x',
        'x-api-key': 'k',
        'api-key': 'a',
        cookie: 'c',
        'openai-organization': 'org-1',
        'openai-project': 'proj_1',
        'x-custom-thing': 'v',
        'x-stainless-secret': 't',
        'Content-Type': 'application/json',
        'openai-beta': 'assistants=v2',
        'x-stainless-lang': 'js',
        'x-ratelimit-remaining-requests': '99',
      }),
    ).toEqual({
      'content-type': 'application/json',
      'openai-beta': 'assistants=v2',
      'x-stainless-lang': 'js',
      'x-ratelimit-remaining-requests': '99',
    });
  });

  it('reuses the redactor of a credential set it has seen, and redacts each set as a fresh redactor does, past the cache bound too', () => {
    const base = createRedactor([], []);
    expect(base.withSecrets(['key-one-0123456789'])).toBe(base.withSecrets(['key-one-0123456789']));
    const secrets = Array.from({ length: 80 }, (_, index) => `credential-${index}-abcdefgh`);
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...secrets), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 150,
        }),
        (sets) => {
          for (const set of sets) {
            const text = secrets.join(' ');
            expect(base.withSecrets(set).text(text)).toBe(
              createRedactor([], []).withSecrets(set).text(text),
            );
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('redacts with a configured pattern that has a literal start, in text and in chunks', () => {
    const redactor = createRedactor(
      [],
      [{ pattern: 'acct_[0-9a-f]{12,}', flags: '', replacement: '[account]' }],
      false,
    );
    expect(redactor.text('id acct_0123456789abcdef, again acct_0123456789ab')).toBe(
      'id [account], again [account]',
    );
    expect(redactor.text('no account here: acct_12')).toBe('no account here: acct_12');
    const body = encoder.encode('x acct_0123456789abcdef y');
    expect(decoder.decode(redactor.chunks(body, [4, body.length]).body)).toBe('x [account] y');
  });

  it('compiles the rules for one set of credentials once, and keeps other sets apart', () => {
    const redactor = createRedactor([], []);
    const first = redactor.withSecrets(['KEY-ONE-12345', 'KEY-TWO-12345']);
    expect(redactor.withSecrets(['KEY-ONE-12345', 'KEY-TWO-12345'])).toBe(first);
    const other = redactor.withSecrets(['KEY-THREE-123']);
    expect(other).not.toBe(first);
    expect(other.text('KEY-ONE-12345 KEY-THREE-123')).toBe(`KEY-ONE-12345 ${credentialMarker}`);
    expect(first.text('KEY-ONE-12345 KEY-THREE-123')).toBe(`${credentialMarker} KEY-THREE-123`);
    expect(redactor.withSecrets(['short'])).toBe(redactor);
  });

  it('redacts credential query parameters in paths, built-in and configured names', () => {
    const redactor = createRedactor(['X-Org-Token'], []);
    expect(
      redactor.path(
        '/v1/chat/completions?api-version=2024-10-21&api-key=SECRET&KEY=s2&x-org-token=t&q=1',
      ),
    ).toBe(
      '/v1/chat/completions?api-version=2024-10-21&api-key=REDACTED&KEY=REDACTED&x-org-token=REDACTED&q=1',
    );
    expect(redactor.path('/v1/models')).toBe('/v1/models');
  });

  it('replaces body patterns with group references expanded', () => {
    const redactor = createRedactor(
      [],
      [{ pattern: '(?<key>user)=(\\w+)', flags: 'i', replacement: '$<key>=[REDACTED $$]' }],
    );
    expect(redactor.text('USER=bob and user=alice')).toBe(
      'USER=[REDACTED $] and user=[REDACTED $]',
    );
    const bytes = encoder.encode('USER=bob and user=alice');
    expect(decoder.decode(redactor.chunks(bytes, [3, bytes.length]).body)).toBe(
      'USER=[REDACTED $] and user=[REDACTED $]',
    );
  });

  it('keeps chunk boundaries meaningful after redaction, for any split', () => {
    const redactor = createRedactor(
      [],
      [{ pattern: 'sk-[a-z0-9]{8,}', flags: '', replacement: '[KEY]' }],
    );
    const text =
      'data: {"a":"sk-abcdef123456 ☃"}\n\ndata: {"b":"no secret 東京"}\n\ndata: {"c":"sk-zzzzzzzzzz"}\n\n';
    const bytes = encoder.encode(text);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const parts = splitBytes(bytes, cuts);
        let end = 0;
        const ends = parts.map((part) => (end += part.length));
        const result = redactor.chunks(bytes, ends);
        expect(decoder.decode(result.body)).toBe(text.replaceAll(/sk-[a-z0-9]{8,}/g, '[KEY]'));
        expect(result.chunkEnds.at(-1)).toBe(result.body.length);
        expect([...result.chunkEnds].sort((a, b) => a - b)).toEqual(result.chunkEnds);
      }),
    );
  });

  it("skips no text the agent's credential or a built-in pattern matches: the same output as running every expression (property)", () => {
    const secret = 'sk-proj-Zz09_-abcdefghij0123456789';
    const redactor = createRedactor([], []).withSecrets([secret]);
    // Every expression run over every text, in the redactor's order: credentials, then the built-ins.
    const everyExpression = (text: string): string =>
      builtinBodyPatterns.reduce(
        (current, { pattern, replacement }) =>
          current.replace(new RegExp(pattern, 'g'), replacement),
        text.replaceAll(secret, credentialMarker),
      );
    const piece = fc.constantFrom(
      'sk-',
      'sk',
      '-',
      'ant-',
      'proj-',
      'AIza',
      'AIz',
      'Sy',
      'aZ09_-aZ09_-aZ09_-',
      secret,
      secret.slice(0, 9),
      secret.slice(9),
      ' ',
      '"',
      'é',
    );
    fc.assert(
      // Padded past `gatedLength` (1,024) half the time, so long texts take the literal gate's path.
      fc.property(fc.array(piece, { maxLength: 14 }), fc.boolean(), (pieces, long) => {
        const text = `${long ? 'x'.repeat(1100) : ''}${pieces.join('')}`;
        const expected = everyExpression(text);
        expect(redactor.text(text)).toBe(expected);
        const bytes = encoder.encode(text);
        expect(decoder.decode(redactor.chunks(bytes, [bytes.length]).body)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
