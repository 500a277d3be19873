import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRunReference, parseRunReference } from './rating.js';

describe('parseRunReference', () => {
  it('reads a cassette session and a stored run case', () => {
    expect(parseRunReference('recordings/bank-demo.sqlite#TC-001')).toEqual({
      kind: 'session',
      cassette: 'recordings/bank-demo.sqlite',
      session: 'TC-001',
    });
    expect(parseRunReference('run:12/small/TC-001')).toEqual({
      kind: 'case',
      runId: 12,
      session: 'small/TC-001',
    });
  });

  it('refuses text that names no run', () => {
    for (const text of ['bank.sqlite', '#TC-1', 'bank.sqlite#', 'run:x/TC-1', 'run:12'])
      expect(parseRunReference(text)).toBeUndefined();
  });

  it('round-trips every reference it formats', () => {
    const session = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);
    const reference = fc.oneof(
      fc.record({
        kind: fc.constant('session' as const),
        cassette: fc.stringMatching(/^[A-Za-z0-9_./#-]{1,20}$/),
        session,
      }),
      fc.record({ kind: fc.constant('case' as const), runId: fc.nat(), session }),
    );
    fc.assert(
      fc.property(reference, (value) => {
        expect(parseRunReference(formatRunReference(value))).toEqual(value);
      }),
    );
  });
});
