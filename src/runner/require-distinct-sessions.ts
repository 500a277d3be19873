import { CalltapeError } from '../errors.js';

/**
 * Fails (exit 2) when two samples would share a session, so one replayed the other's recording:
 * a case id such as `refund#2` beside a repeated case `refund`.
 */
export function requireDistinctSessions(file: string, sessions: readonly string[]): void {
  const seen = new Set<string>();
  for (const session of sessions) {
    if (seen.has(session))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file}: cases: two samples would both run under the session "${session}" (a case id ending in #<number> beside a repeated case of that name)`,
        'Rename the case whose id ends in #<number>.',
      );
    seen.add(session);
  }
}
