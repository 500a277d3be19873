import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../errors.js';
import { requireDistinctSessions } from './require-distinct-sessions.js';

describe('requireDistinctSessions', () => {
  it('refuses two samples under one session (a case id refund#2 beside a repeated refund)', () => {
    expect(() => requireDistinctSessions('suite.yaml', ['refund', 'refund#2', 'refund#2'])).toThrow(
      CalltapeError,
    );
    expect(() => requireDistinctSessions('suite.yaml', ['refund', 'refund#2'])).not.toThrow();
  });
});
