import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedHeaderFilter, storedHeaderNames } from './stored-headers.js';

const secret = new Set(['authorization', 'x-api-key', 'cookie', 'x-stainless-secret']);

/** The allowlist read straight from its definition, judged afresh for every header. */
function expected(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const allowed = storedHeaderNames.some((entry) =>
      entry.endsWith('-') ? lower.startsWith(entry) : lower === entry,
    );
    if (value !== undefined && allowed && !secret.has(lower))
      kept[lower] = typeof value === 'string' ? value : [...value];
  }
  return kept;
}

const headerName = fc.oneof(
  fc.constantFrom(...storedHeaderNames, ...secret, 'host', 'openai-organization', 'x-custom'),
  fc.constantFrom(
    'Content-Type',
    'AUTHORIZATION',
    'X-Stainless-Lang',
    'x-ratelimit-limit',
    'X-API-Key',
  ),
  fc.string({ maxLength: 8 }),
);
const headers = fc.dictionary(
  headerName,
  fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.constant(undefined)),
  { maxKeys: 12 },
);

describe('storedHeaderFilter', () => {
  it('keeps exactly the allowlisted, non-secret headers, however often it has seen their names', () => {
    const filter = storedHeaderFilter(secret);
    fc.assert(
      fc.property(headers, (sent) => {
        expect(filter(sent)).toEqual(expected(sent));
        expect(filter(sent)).toEqual(expected(sent));
      }),
      { numRuns: 500 },
    );
  });

  it('judges names past its memory as it judges those it remembers', () => {
    const filter = storedHeaderFilter(secret);
    for (let index = 0; index < 600; index++) filter({ [`x-invented-${String(index)}`]: 'v' });
    const sent = { 'X-Stainless-OS': 'Linux', Authorization: 'Bearer k', 'x-invented-9999': 'v' };
    expect(filter(sent)).toEqual({ 'x-stainless-os': 'Linux' });
  });

  it('copies a list value, so the stored headers never alias what the caller holds', () => {
    const values = ['a', 'b'];
    const kept = storedHeaderFilter(secret)({ accept: values });
    expect(kept['accept']).toEqual(values);
    expect(kept['accept']).not.toBe(values);
  });
});
