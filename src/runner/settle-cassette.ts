import { resolve } from 'node:path';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import type { CaseResult } from '../scoring/case-result.js';
import type { Suite } from '../scoring/suite-types.js';
import type { SuiteRunOptions } from './run-suite.js';
import { supersedeRecorded } from './supersede-recorded.js';

/**
 * What a finished suite run leaves in its cassette and runs database: a record or auto run
 * replaces the earlier recordings of the cases it recorded again, and the run's use of the
 * cassette is noted with its errors (so `cassettes prune` never decides from a run that failed).
 */
export function settleCassette(
  suite: Pick<Suite, 'cassette' | 'cases' | 'runs'>,
  options: Pick<SuiteRunOptions, 'mode' | 'logger' | 'onCassetteUse'>,
  run: {
    readonly started: number;
    /** The run's case results; undefined when it threw before scoring them. */
    readonly scored: readonly CaseResult[] | undefined;
    readonly usages: readonly CassetteUsage[];
  },
): void {
  const { started, scored, usages } = run;
  // The run's own result (or error) stands: a cassette busy elsewhere only keeps both runs.
  if ((options.mode === 'record' || options.mode === 'auto') && scored)
    try {
      supersedeRecorded(
        suite.cassette,
        started,
        scored,
        options.logger,
        options.mode === 'auto' ? servedFrom(usages, suite.cassette) : undefined,
      );
    } catch (error) {
      options.logger.warn(
        `${suite.cassette}: the earlier recordings of the cases recorded again were kept: ${(error as Error).message}`,
      );
    }
  // A run that threw never scored its cases: every one counts as an error for prune.
  const errors = scored
    ? scored.filter((result) => result.status === 'error').length
    : suite.cases.length * suite.runs.length;
  options.onCassetteUse?.(usages.map((usage) => ({ ...usage, errors })));
}

/** The recordings a run served from one cassette. */
function servedFrom(usages: readonly CassetteUsage[], cassette: string): ReadonlySet<string> {
  return new Set(
    usages
      .filter((usage) => usage.cassette === resolve(cassette))
      .flatMap((usage) => usage.servedIds),
  );
}
