import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialValues } from './credential-values.js';
import { createRedactor, credentialMarker } from './redact.js';
import { redactDeep } from './redact-content.js';

describe('redactDeep', () => {
  const redactor = createRedactor([], []).withSecrets(['SECRETVALUE123']);

  it('replaces credentials in every string of plain data and keeps unchanged data the same instance', () => {
    const value = { a: ['x SECRETVALUE123 y', { b: 'SECRETVALUE123' }], n: 1, clean: { c: 'ok' } };
    const redacted = redactDeep(value, redactor);
    expect(redacted).toEqual({
      a: [`x ${credentialMarker} y`, { b: credentialMarker }],
      n: 1,
      clean: { c: 'ok' },
    });
    expect(redacted.clean).toBe(value.clean);
    const clean = { a: ['x'], b: 2 };
    expect(redactDeep(clean, redactor)).toBe(clean);
  });

  it('copies exactly what a copy-everything walk would, keys in order, and nothing that is unchanged (property)', () => {
    const copyAll = (value: unknown): unknown => {
      if (typeof value === 'string') return redactor.text(value);
      if (Array.isArray(value)) return value.map(copyAll);
      if (typeof value === 'object' && value !== null)
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyAll(item)]));
      return value;
    };
    const withSecrets = fc.letrec((tie) => ({
      value: fc.oneof(
        fc.constantFrom('SECRETVALUE123', 'a SECRETVALUE123', 'clean', 1, null, true),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'SECRETVALUE123'), tie('value'), {
          maxKeys: 3,
        }),
      ),
    })).value;
    fc.assert(
      fc.property(withSecrets, (value) => {
        const redacted = redactDeep(value, redactor);
        expect(JSON.stringify(redacted)).toBe(JSON.stringify(copyAll(value)));
        if (!JSON.stringify(value).includes('SECRETVALUE123"')) expect(redacted).toBe(value);
      }),
    );
  });

  it('leaves no credential in any string that held one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), (parts) => {
        const text = parts.join('SECRETVALUE123');
        expect(redactDeep({ text }, redactor).text.includes('SECRETVALUE123')).toBe(false);
      }),
    );
  });
});

describe('credentialValues', () => {
  it('takes every credential header, configured ones and each cookie value', () => {
    expect(
      credentialValues(
        {
          'x-goog-api-key': 'GOOG-123456789',
          cookie: 'a=COOKIE-1234567; b=%41BCDEFGHIJ',
          'x-org-token': 'ORG-123456789',
        },
        '/v1',
        ['X-Org-Token'],
      ),
    ).toEqual(['GOOG-123456789', 'COOKIE-1234567', '%41BCDEFGHIJ', 'ABCDEFGHIJ', 'ORG-123456789']);
  });
});
