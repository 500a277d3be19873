import type { SuiteRunResult } from './run-result.js';

/** The JSON report's schema version (config/test-report.schema.json); bumped on any breaking change. */
export const reportSchemaVersion = 2;

/** The stable JSON report: the whole run result, keys in a fixed order. */
export function jsonReport(result: SuiteRunResult, exitCode: number): string {
  return `${JSON.stringify({ schema_version: reportSchemaVersion, ...result, exit_code: exitCode }, null, 2)}\n`;
}

/** Pass rates by run from a JSON report, for `--baseline`. */
export function baselineOf(report: unknown): Map<string, number> | undefined {
  const runs = (report as { schema_version?: unknown; runs?: unknown } | null)?.runs;
  if (!Array.isArray(runs)) return undefined;
  const rates = new Map<string, number>();
  for (const run of runs as { run?: unknown; pass_rate?: unknown }[])
    if (typeof run.run === 'string' && typeof run.pass_rate === 'number')
      rates.set(run.run, run.pass_rate);
  return rates;
}
