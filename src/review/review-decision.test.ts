import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../errors.js';
import { parseReviewDecision } from './review-decision.js';

const files = ['suites/drafts.yaml'];

describe('parseReviewDecision', () => {
  it('reads a decision on a suite under review', () => {
    expect(
      parseReviewDecision(
        { suite: 'suites/drafts.yaml', case: 'gen-1', decision: 'reject', keep_rejected: true },
        files,
      ),
    ).toEqual({
      suite: 'suites/drafts.yaml',
      case: 'gen-1',
      decision: 'reject',
      keepRejected: true,
    });
  });

  it('refuses every suite that is not under review, in the same words whatever the path', () => {
    fc.assert(
      fc.property(
        fc.string().filter((suite) => !files.includes(suite)),
        (suite) => {
          expect(() =>
            parseReviewDecision({ suite, case: 'gen-1', decision: 'accept' }, files),
          ).toThrow(
            'the review request\'s "suite" must be one of the suites under review (suites/drafts.yaml)',
          );
        },
      ),
    );
  });

  it('refuses a decision other than accept or reject, and a keep_rejected that is not a boolean', () => {
    expect(() =>
      parseReviewDecision({ suite: files[0], case: 'gen-1', decision: 'flip' }, files),
    ).toThrow(CalltapeError);
    expect(() =>
      parseReviewDecision(
        { suite: files[0], case: 'gen-1', decision: 'accept', keep_rejected: 'yes' },
        files,
      ),
    ).toThrow(/keep_rejected/);
  });
});
