import { CalltapeError } from '../errors.js';

/**
 * The session a sample of a case runs under, and so the recordings replay serves it: sample 1 keeps
 * the case's own session (a suite recorded before repeats existed replays unchanged), sample k
 * adds `#k`.
 */
export function sampleSession(caseSession: string, sample: number): string {
  return sample === 1 ? caseSession : `${caseSession}#${sample}`;
}

/** The case session and sample of a session named by `sampleSession`; sample 1 for any other. */
export function parseSampleSession(session: string): { caseSession: string; sample: number } {
  const mark = session.lastIndexOf('#');
  const ordinal = mark < 0 ? '' : session.slice(mark + 1);
  if (!/^[1-9]\d*$/.test(ordinal) || ordinal === '1') return { caseSession: session, sample: 1 };
  return { caseSession: session.slice(0, mark), sample: Number(ordinal) };
}

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
