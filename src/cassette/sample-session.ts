/**
 * The session a sample of a repeated case runs under (`calltape test --repeat`), which is part of
 * its recordings' identity: sample 1 keeps the case's own session (a suite recorded before
 * repeats existed replays unchanged), sample k adds `#k`, and replay serves a sample k ≥ 2 only
 * recordings of its own session (see `CassetteReader.find`).
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
