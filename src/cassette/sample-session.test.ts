import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSampleSession, sampleSession } from './sample-session.js';

describe('sampleSession', () => {
  it("sample 1 keeps the case's session, so recordings made before repeats replay unchanged", () => {
    expect(sampleSession('refund', 1)).toBe('refund');
    expect(sampleSession('gpt/refund', 3)).toBe('gpt/refund#3');
  });

  it('parses back what it names', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 10_000 }), (caseSession, sample) => {
        if (sample > 1)
          expect(parseSampleSession(sampleSession(caseSession, sample))).toEqual({
            caseSession,
            sample,
          });
        else expect(sampleSession(caseSession, sample)).toBe(caseSession);
      }),
    );
    expect(parseSampleSession('refund#0')).toEqual({ caseSession: 'refund#0', sample: 1 });
    expect(parseSampleSession('refund#02')).toEqual({ caseSession: 'refund#02', sample: 1 });
  });
});
