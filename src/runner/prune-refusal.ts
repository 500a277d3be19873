import type { LastCassetteRun } from './cassette-use-store.js';

/**
 * Why `cassettes prune` must not decide from a cassette's last run, or undefined when it may.
 * Prune deletes what that run did not use, so it trusts the run to have exercised the cassette:
 * a run with errors (agents that could not start, a command that failed) or a replay that served
 * nothing and recorded nothing proves nothing about what the cassette still needs.
 */
export function pruneRefusal(run: LastCassetteRun, recordedSince: number): string | undefined {
  if (run.errors !== undefined && run.errors > 0)
    return `it ended with ${run.errors === 1 ? 'an error' : `${run.errors} errors`} (a case that could not run, or a command that exited non-zero), so what it left unused may still be needed`;
  // An auto run that recorded everything anew (a prompt change) served nothing and is complete.
  if (
    (run.mode === 'replay' || run.mode === 'auto') &&
    run.servedIds.size === 0 &&
    recordedSince === 0
  )
    return `it served no recording${run.missed > 0 ? ` (${run.missed} request(s) missed)` : ''}: its agents may never have reached calltape`;
  return undefined;
}
