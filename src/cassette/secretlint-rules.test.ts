import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';
import { ruleLiterals, secretlintRuleNames } from './secretlint-rules.js';

const redactor = createRedactor([], []);
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const run = (characters: string, length: number): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...Array.from(characters)), { minLength: length, maxLength: length })
    .map((parts) => parts.join(''));
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const base64 = `${alnum}+/`;

/** A generator of tokens per family the issue names; each yields the token and the part that must be gone. */
const families: Readonly<Record<string, fc.Arbitrary<{ text: string; secret: string }>>> = {
  'GitHub classic': fc
    .tuple(fc.constantFrom('ghp', 'gho', 'ghu', 'ghs', 'ghr'), run(`${alnum}_`, 36))
    .map(([prefix, body]) => same(`${prefix}_${body}`)),
  'GitHub fine-grained': run(`${alnum}_`, 82).map((body) => same(`github_pat_${body}`)),
  Slack: fc
    .tuple(fc.constantFrom('xoxb', 'xoxp', 'xapp'), run('0123456789', 12), run(alnum, 24))
    .map(([prefix, team, body]) => same(`${prefix}-${team}-${team}-${body}`)),
  'AWS access key': fc
    .tuple(fc.constantFrom('AKIA', 'ASIA'), run(upper, 16))
    .filter(([, body]) => body !== 'IOSFODNN7EXAMPLE')
    .map(([prefix, body]) => same(`${prefix}${body}`)),
  // Unquoted: the rule reads quotes around the value, which JSON escapes (`\\"`), and misses it there.
  // Ending in a letter or digit: the rule wants a word boundary after the key.
  'AWS secret key': fc
    .tuple(run(base64, 39), run(alnum, 1))
    .map(([head, tail]) => `${head}${tail}`)
    .map((secret) => ({
      text: `AWS_SECRET_ACCESS_KEY=${secret}`,
      secret,
    })),
  'Google OAuth': run(`${alnum}_-`, 40).map((body) => same(`ya29.${body}`)),
  Stripe: fc
    .tuple(fc.constantFrom('sk_live_', 'rk_live_', 'sk_test_'), run(alnum, 24))
    .map(([prefix, body]) => same(`${prefix}${body}`)),
  npm: run(`${alnum}_`, 36).map((body) => same(`npm_${body}`)),
  'npmrc auth token': run(alnum, 32).map((secret) => ({
    text: `//registry.npmjs.org/:_authToken=${secret}`,
    secret,
  })),
  'private key block': run(base64, 120).map((body) => {
    const key = `MII${body}`;
    return {
      text: `-----BEGIN RSA PRIVATE KEY-----\n${key}\n-----END RSA PRIVATE KEY-----`,
      secret: key,
    };
  }),
};

function same(token: string): { text: string; secret: string } {
  return { text: token, secret: token };
}

/** Random words around the token, never letters touching it (a rule only takes a token standing alone). */
const words = fc
  .array(fc.string({ maxLength: 12 }), { maxLength: 4 })
  .map((parts) => parts.join(' '));

describe('built-in redaction of the token families an MCP server holds', () => {
  for (const [family, token] of Object.entries(families)) {
    it(`redacts ${family} tokens embedded in random JSON or text (property)`, () => {
      fc.assert(
        fc.property(
          token,
          words,
          words,
          fc.jsonValue(),
          fc.boolean(),
          (found, before, after, json, asJson) => {
            const text = asJson
              ? JSON.stringify({
                  before: json,
                  value: `${before} ${found.text} ${after}`,
                  after: json,
                })
              : `${before}\n${found.text}\n${after}`;
            const redacted = redactor.text(text);
            expect(redacted).not.toContain(found.secret);
            expect(redacted).toContain('[REDACTED:');
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('redacts all of an AWS secret key, though the rule reports the start of its assignment', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz';
    const redacted = redactor.text(`{"aws_secret_access_key": "${secret}"}`);
    expect(redacted).not.toContain(secret.slice(-20));
  });

  it('cannot be switched off by a secretlint-disable comment in the text', () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    expect(redactor.text(`// secretlint-disable\n${token}`)).not.toContain(token);
  });

  it('leaves ordinary model traffic alone', () => {
    const text = JSON.stringify({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'What is the weather in Paris? My account has a secret.' },
      ],
    });
    expect(redactor.text(text)).toBe(text);
  });

  it('gates every rule of the preset on the literals its findings contain', () => {
    expect(secretlintRuleNames().filter((name) => !ruleLiterals.has(name))).toEqual([]);
  });
});
