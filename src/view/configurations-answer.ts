import {
  configurationMatrix,
  labelledConfigurations,
  type LabelledRun,
} from '../report/configuration-matrix.js';
import type { SuiteRunResult } from '../report/run-result.js';
import {
  maxComparedRuns,
  viewApiVersion,
  type ConfigurationsAnswer,
  type RunListing,
} from './api-types.js';

/** A run named for the side-by-side table: its id, and the one configuration wanted, if one was named. */
export interface RunReference {
  readonly id: number;
  readonly config: string | undefined;
}

/**
 * Reads the `run` query values (`12`, `12:small`), in order; a message naming the bad value
 * when one is not a run reference, or when there are none or too many.
 */
export function runReferences(values: readonly string[]): RunReference[] | string {
  if (values.length === 0) return 'name at least one run: ?run=<id>[:<configuration>]';
  if (values.length > maxComparedRuns)
    return `at most ${maxComparedRuns} runs side by side (got ${values.length})`;
  const references: RunReference[] = [];
  for (const value of values) {
    const match = /^(\d{1,15})(?::(.+))?$/s.exec(value);
    if (!match)
      return `run "${value}" is not a run reference: an id, or id:configuration (12, 12:small)`;
    references.push({ id: Number(match[1]), config: match[2] });
  }
  return references;
}

/** A run named for the table, found in the runs database. */
export interface ReferencedRun {
  readonly reference: RunReference;
  readonly listing: RunListing;
  readonly report: SuiteRunResult;
}

/**
 * The configurations of some runs side by side, labelled as `calltape compare` labels them
 * (`#12`, `#12:small`); a message when a named configuration is not in its run.
 */
export function configurationsAnswer(
  runs: readonly ReferencedRun[],
): ConfigurationsAnswer | string {
  const sides: LabelledRun[] = [];
  for (const { reference, report } of runs) {
    const { id, config } = reference;
    if (config !== undefined && !report.runs.some((run) => run.run === config))
      return `run #${id} has no configuration "${config}" (it has ${report.runs.map((run) => run.run).join(', ')})`;
    sides.push({
      label: config === undefined ? `#${id}` : `#${id}:${config}`,
      result: report,
      ...(config === undefined ? {} : { config }),
    });
  }
  return {
    version: viewApiVersion,
    runs: runs.map((run) => run.listing),
    matrix: configurationMatrix(labelledConfigurations(sides)),
  };
}
